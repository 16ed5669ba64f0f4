/**
 * Runs pi's interactive mode (pi 0.87.1 itself, or our binary) in a real pseudo-terminal and reads its screen
 * through a headless terminal emulator (@xterm/headless), as a user at an xterm would see it. Each app gets its own
 * temp HOME with a models.json pointing at its own loopback mock LLM (the same setup for both), TERM=xterm-256color,
 * PI_OFFLINE=1 and dead proxies, so nothing leaves the machine. Tests drive it with keys, typed text and bracketed
 * pastes, and wait for the screen to show something.
 *
 * The emulator answers the app's terminal queries (device attributes, and the kitty keyboard query when
 * `keyboard: "kitty"`), so the app negotiates as it would with a real terminal; keys are encoded to match
 * (see test/support/pty-keys.ts).
 */
import { afterAll } from "bun:test";
import { constants } from "node:os";
import { join } from "node:path";
import { Terminal as XTerm } from "@xterm/headless";
import { type MockLlmServer, type MockStep, startMockLlm } from "../support/mock-llm/index.ts";
import { descendants } from "../support/process-tree.ts";
import { isKeyName, type KeyboardState, keyBytes } from "../support/pty-keys.ts";
import { ensureBinary } from "./binary.ts";
import { runnablePi } from "./side-by-side.ts";
import { makeTempDir, writeTree } from "./tmp.ts";

export type AppKind = "pi" | "ours";

export interface PtyAppOptions {
	cols?: number;
	rows?: number;
	/** Files under the app's cwd (`<home>/work`), `{ "relative/path": "content" }`. */
	files?: Record<string, string>;
	/** Files under HOME. */
	homeFiles?: Record<string, string>;
	/** Extension files, each passed as `-e <path>` (absolute, or relative to the cwd). */
	extensions?: string[];
	/** Merged over the default `~/.pi/agent/settings.json` (which selects the mock model). */
	settings?: Record<string, unknown>;
	/** Session files (name → JSONL) in the cwd's session folder; `{{cwd}}` in the text is replaced by the cwd. */
	sessions?: Record<string, string>;
	/** More command-line arguments, after the `-e` ones. */
	args?: string[];
	env?: Record<string, string>;
	/** Steps queued on the mock LLM before the app starts (more with `app.mock.push`). */
	mock?: MockStep[];
	/** The model the mock serves (default `mock-1`) and its API (default anthropic-messages). */
	model?: { id?: string; api?: string; contextWindow?: number; reasoning?: boolean };
	/** Built-in providers (no key configured) whose requests also go to the mock: `{ anthropic: {} }`. */
	redirectProviders?: string[];
	/** More model ids the mock provider offers (same settings as the main one), for model switching. */
	moreModels?: string[];
	/** "kitty": the emulator says it supports the kitty keyboard protocol. Default "legacy" (a plain xterm). */
	keyboard?: "legacy" | "kitty";
}

export interface PtyApp {
	readonly kind: AppKind;
	/** The app's process id (also its process group and session id). */
	readonly pid: number;
	readonly home: string;
	readonly cwd: string;
	readonly mock: MockLlmServer;
	/**
	 * Keys (names like "enter", "ctrl+c", "alt+enter", "up") or text, in order, each in its own write a few
	 * milliseconds apart, as a terminal delivers separate key presses.
	 */
	press(...keys: string[]): Promise<void>;
	type(text: string): void;
	/** Text as a bracketed paste (if the app enabled bracketed paste, otherwise as typed). */
	paste(text: string): void;
	/** Raw bytes to the app. */
	send(bytes: string): void;
	/** Resolves with the visible lines once `target` shows (text, pattern, or predicate on the lines). */
	waitFor(target: string | RegExp | ((lines: string[]) => boolean), timeoutMs?: number): Promise<string[]>;
	/**
	 * Resolves once start-up is over: pi sets the window title when it has bound the session's extensions, and only
	 * then accepts a submitted prompt ("Startup is still in progress" before). Returns the visible lines.
	 */
	ready(timeoutMs?: number): Promise<string[]>;
	/** Visible rows, right-trimmed, once everything received so far has been interpreted. */
	screen(): Promise<string[]>;
	/** Rows scrolled off the top, oldest first, right-trimmed. */
	scrollback(): Promise<string[]>;
	/** How keys are encoded now: whether the app negotiated kitty, turned modifyOtherKeys on … */
	keyboard(): Readonly<KeyboardState>;
	/** The window title the app set last. */
	title(): string;
	/** Every byte the app wrote. */
	output(): string;
	resize(cols: number, rows: number): void;
	/** The exit code (a signal death gives 128 + signal number). */
	readonly exited: Promise<number>;
	/** Kills the whole process group, stops the mock; safe to call twice. */
	close(): Promise<void>;
}

/** Pause between separate key presses. */
const KEY_GAP_MS = 40;

const MODEL_DEFAULTS = { id: "mock-1", api: "anthropic-messages", contextWindow: 200_000, reasoning: true };

/** Our compiled binary in a pseudo-terminal. */
export function startOurs(options: PtyAppOptions = {}): Promise<PtyApp> {
	return startApp("ours", [ensureBinary()], options);
}

/** pi 0.87.1 under Node 22 in a pseudo-terminal, or why it cannot run here. */
/** Starts our app for a test file; `track` adds another app (pi's, or one not waited for) to close at the end. */
export interface AppStarter {
	(options?: PtyAppOptions): Promise<PtyApp>;
	track<T extends PtyApp>(app: T): T;
}

/**
 * `start` for a test file: our app with `defaults` under `options`, waited for until ready, and closed once the
 * file's tests are done.
 */
export function ourAppStarter(defaults: PtyAppOptions = {}): AppStarter {
	const apps: PtyApp[] = [];
	afterAll(async () => {
		await Promise.all(apps.splice(0).map((app) => app.close()));
	});
	const start = async (options: PtyAppOptions = {}) => {
		const app = await startOurs({ ...defaults, ...options });
		apps.push(app);
		await app.ready();
		return app;
	};
	return Object.assign(start, {
		track<T extends PtyApp>(app: T): T {
			apps.push(app);
			return app;
		},
	});
}

export function startPi(options: PtyAppOptions = {}): Promise<PtyApp | { skip: string }> {
	const pi = runnablePi();
	if ("error" in pi) return Promise.resolve({ skip: `pi 0.87.1 unavailable: ${pi.error}` });
	return startApp("pi", [pi.node, pi.cli], options);
}

/** Why pi cannot run here, or undefined when it can. */
export function piUnavailable(): string | undefined {
	const pi = runnablePi();
	return "error" in pi ? `pi 0.87.1 unavailable: ${pi.error}` : undefined;
}

export function startApp(kind: AppKind, command: string[], options: PtyAppOptions): Promise<PtyApp> {
	const mock = startMockLlm({ steps: options.mock ?? [] });
	const home = makeTempDir(`pi-pty-${kind}-`);
	const cwd = join(home, "work");
	const agentDir = join(home, ".pi", "agent");
	const model = { ...MODEL_DEFAULTS, ...options.model };
	const settings = { defaultProvider: "mock", defaultModel: model.id, ...options.settings };
	const sessionDir = join(".pi", "agent", "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
	const sessionFiles: Record<string, string> = {};
	for (const [name, text] of Object.entries(options.sessions ?? {}))
		sessionFiles[join(sessionDir, name)] = text.replaceAll("{{cwd}}", cwd);
	writeTree(home, {
		"work/.keep": "",
		".tmp/.keep": "",
		".pi/agent/models.json": JSON.stringify({
			providers: {
				mock: {
					baseUrl: mock.url,
					api: model.api,
					apiKey: "mock-key",
					models: [model.id, ...(options.moreModels ?? [])].map((id) => ({
						id,
						reasoning: model.reasoning,
						input: ["text", "image"],
						contextWindow: model.contextWindow,
						maxTokens: 8000,
					})),
				},
				...Object.fromEntries((options.redirectProviders ?? []).map((name) => [name, { baseUrl: mock.url }])),
			},
		}),
		".pi/agent/settings.json": JSON.stringify(settings),
		...options.homeFiles,
		...sessionFiles,
	});
	writeTree(cwd, options.files ?? {});
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		USER: process.env.USER ?? "tester",
		LANG: "C.UTF-8",
		TERM: "xterm-256color",
		TMPDIR: join(home, ".tmp"),
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		HTTP_PROXY: "http://127.0.0.1:9",
		HTTPS_PROXY: "http://127.0.0.1:9",
		NO_PROXY: "127.0.0.1,localhost",
		...options.env,
	};
	const args = [...(options.extensions ?? []).flatMap((path) => ["-e", path]), ...(options.args ?? [])];
	return Promise.resolve(spawnInTerminal(kind, [...command, ...args], { cwd, env, home, mock, options }));
}

interface SpawnContext {
	cwd: string;
	env: Record<string, string>;
	home: string;
	mock: MockLlmServer;
	options: PtyAppOptions;
}

function spawnInTerminal(kind: AppKind, argv: string[], ctx: SpawnContext): PtyApp {
	const cols = ctx.options.cols ?? 100;
	const rows = ctx.options.rows ?? 30;
	const xterm = new XTerm({ cols, rows, scrollback: 5000, allowProposedApi: true });
	const keyboard: KeyboardState = { kitty: false, modifyOtherKeys: false, applicationCursorKeys: false };
	const offersKitty = ctx.options.keyboard === "kitty";
	let kittyFlags = 0;
	let raw = "";
	let title = "";
	let pending: Promise<void> = Promise.resolve();
	let closed = false;
	const decoder = new TextDecoder();
	xterm.onTitleChange((text) => {
		title = text;
	});

	const proc = Bun.spawn(argv, {
		cwd: ctx.cwd,
		env: ctx.env,
		terminal: {
			cols,
			rows,
			name: "xterm-256color",
			data: (_term, bytes) => {
				const text = decoder.decode(bytes, { stream: true });
				raw += text;
				watchModes(text);
				pending = pending.then(() => new Promise<void>((resolve) => xterm.write(text, resolve)));
			},
		},
	});
	const terminal = proc.terminal as NonNullable<typeof proc.terminal>;
	const write = (bytes: string) => {
		if (!closed && !terminal.closed) terminal.write(bytes);
	};
	// What the emulator answers to queries (device attributes, cursor position …) goes back to the app.
	xterm.onData((data) => write(data));

	/** Keyboard protocol switches: the emulator keeps no state for these, so they are read from the bytes. */
	function watchModes(text: string): void {
		// biome-ignore lint/suspicious/noControlCharactersInRegex: keyboard protocol switches are escape sequences
		for (const match of text.matchAll(/\x1b\[(>(\d*)u|<(\d*)u|\?u|>4;(\d)m|>4m|\?1([hl]))/g)) {
			const [, body, push, , mok, deckm] = match;
			if (body === "?u") {
				if (offersKitty) write(`\x1b[?${kittyFlags}u`);
			} else if (push !== undefined && body?.startsWith(">")) {
				kittyFlags = Number(push || 1);
				keyboard.kitty = offersKitty;
			} else if (body?.startsWith("<")) {
				kittyFlags = 0;
				keyboard.kitty = false;
			} else if (mok !== undefined) {
				keyboard.modifyOtherKeys = mok === "2" || mok === "1";
			} else if (body === ">4m") {
				keyboard.modifyOtherKeys = false;
			} else if (deckm) {
				keyboard.applicationCursorKeys = deckm === "h";
			}
		}
	}

	let exitCode: number | undefined;
	const exited = proc.exited.then(() => {
		const signal = proc.signalCode ? constants.signals[proc.signalCode as keyof typeof constants.signals] : 0;
		exitCode = proc.exitCode ?? 128 + (signal ?? 0);
		return exitCode;
	});
	/**
	 * Everything received up to now has been interpreted. Output arriving meanwhile is not waited for: an app that
	 * draws continuously (a streaming reply, a spinner) would otherwise keep the caller waiting until it pauses.
	 */
	const flushed = async () => {
		await pending;
	};
	/** Once the app is gone, what it wrote last may still be arriving: a short grace, then the final screen. */
	const finalScreenAfterExit = async (): Promise<string[] | undefined> => {
		if (exitCode === undefined) return undefined;
		await Bun.sleep(200);
		await flushed();
		return visible();
	};
	const trimmedScreen = () => {
		const lines = visible();
		while (lines.length && lines.at(-1) === "") lines.pop();
		return lines.join("\n");
	};
	const visible = (): string[] => {
		const buffer = xterm.buffer.active;
		const lines: string[] = [];
		for (let i = 0; i < xterm.rows; i++)
			lines.push(
				buffer
					.getLine(buffer.baseY + i)
					?.translateToString(true)
					.trimEnd() ?? "",
			);
		return lines;
	};

	const app: PtyApp = {
		kind,
		pid: proc.pid,
		home: ctx.home,
		cwd: ctx.cwd,
		mock: ctx.mock,
		async press(...keys) {
			for (const [i, key] of keys.entries()) {
				if (i > 0) await Bun.sleep(KEY_GAP_MS);
				write(isKeyName(key) ? keyBytes(key, keyboard) : key);
			}
		},
		type(text) {
			write(text);
		},
		paste(text) {
			write(xterm.modes.bracketedPasteMode ? `\x1b[200~${text}\x1b[201~` : text);
		},
		send: write,
		async waitFor(target, timeoutMs = 10_000) {
			const matches =
				typeof target === "function"
					? target
					: (lines: string[]) => {
							const text = lines.join("\n");
							return typeof target === "string" ? text.includes(target) : target.test(text);
						};
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				await flushed();
				const lines = visible();
				if (matches(lines)) return lines;
				const what = typeof target === "function" ? "a screen matching the predicate" : String(target);
				const last = await finalScreenAfterExit();
				if (last && matches(last)) return last;
				if (last)
					throw new Error(
						`${kind}: exited with code ${exitCode} while waiting for ${what}; screen:\n${trimmedScreen()}`,
					);
				if (Date.now() > deadline)
					throw new Error(`${kind}: timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${trimmedScreen()}`);
				await Bun.sleep(25);
			}
		},
		async ready(timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			while (title === "") {
				if (await finalScreenAfterExit())
					throw new Error(`${kind}: exited with code ${exitCode} during start-up; screen:\n${trimmedScreen()}`);
				if (Date.now() > deadline) {
					await flushed();
					throw new Error(`${kind}: not ready after ${timeoutMs} ms (no window title); screen:\n${trimmedScreen()}`);
				}
				await Bun.sleep(25);
				await flushed();
			}
			return visible();
		},
		async screen() {
			await flushed();
			return visible();
		},
		async scrollback() {
			await flushed();
			const buffer = xterm.buffer.active;
			const lines: string[] = [];
			for (let i = 0; i < buffer.baseY; i++) lines.push(buffer.getLine(i)?.translateToString(true).trimEnd() ?? "");
			return lines;
		},
		keyboard: () => ({ ...keyboard }),
		title: () => title,
		output: () => raw,
		resize(newCols, newRows) {
			xterm.resize(newCols, newRows);
			if (!terminal.closed) terminal.resize(newCols, newRows);
		},
		exited,
		async close() {
			if (closed) return;
			closed = true;
			// Children that started their own group (a bash tool's command does) are found through their parents.
			const family = descendants(proc.pid);
			// The app is its session's leader (a pseudo-terminal gives it one), so its pid is the group id.
			for (const target of [-proc.pid, proc.pid, ...family]) {
				try {
					process.kill(target, "SIGKILL");
				} catch {
					// Already gone.
				}
			}
			await Promise.race([proc.exited, Bun.sleep(2000)]);
			if (!terminal.closed) terminal.close();
			ctx.mock.stop();
			xterm.dispose();
		},
	};
	return app;
}
