/**
 * Session commands with a screen: `/resume` (the session picker; `pi -r` opens it at start), `/session` (file, id,
 * name, message/tool/token counts and cost), `/fork` (pick an earlier user message of this branch: a new session
 * file up to it, its text in the editor), `/clone` (the branch as a new session) and `/import <path>` (a session
 * file copied into this folder's sessions and opened). Every failure is one line naming the file and the reason;
 * nothing is written until it can succeed.
 */
import { basename, join, parse, resolve } from "node:path";
import { getDefaultSessionDir, getSessionsRoot, readHeader, SessionManager } from "../../../session/index.ts";
import { Text } from "../../../tui/index.ts";
import {
	childProcess,
	copyFileSync,
	errorMessage,
	existsSync,
	expandHome,
	mkdirSync,
	unlinkSync,
} from "../../../util/index.ts";
import { forkMessages, sessionStats } from "../../session-stats.ts";
import { theme } from "../components/style.ts";
import { ExtensionSelectorComponent } from "../dialogs/index.ts";
import { sessionFoldersUnder } from "../selectors/session-scan.ts";
import { SessionSelector } from "../selectors/session-selector.ts";
import { UserMessageSelector } from "../selectors/user-message-selector.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

async function resumeSession(c: CommandContext, path: string): Promise<void> {
	c.status.clear();
	try {
		const result = await c.host.switchSession(path);
		if (!result.cancelled) c.app.chat.showStatus("Resumed session");
	} catch (error) {
		c.app.chat.showError(`Failed to resume session ${path}: ${errorMessage(error)}`);
	}
	c.app.tui.requestRender();
}

async function renameSession(c: CommandContext, path: string, name: string): Promise<void> {
	if (path === c.host.manager.getSessionFile()) {
		c.host.manager.appendSessionInfo(name);
		return;
	}
	const manager = SessionManager.open(path, undefined, undefined, { onLocked: "throw" });
	try {
		manager.appendSessionInfo(name);
	} finally {
		manager.close();
	}
}

/** The `trash` command when there is one (recoverable), else unlink. */
async function removeSession(path: string): Promise<string> {
	const trash = Bun.which("trash");
	if (trash) {
		const result = childProcess().spawnSync(trash, path.startsWith("-") ? ["--", path] : [path], { stdio: "ignore" });
		if (result.status === 0 || !existsSync(path)) return "Session moved to trash";
	}
	unlinkSync(path);
	return "Session deleted";
}

/**
 * Shows the session picker. `atStart` (`pi -r`): Escape quits, as pi's start-up picker does, and `onQuit` runs.
 */
export function openResumePicker(c: CommandContext, options: { atStart?: boolean; onQuit?: () => void } = {}): void {
	const manager = c.host.manager;
	const dir = manager.getSessionDir();
	const file = manager.getSessionFile();
	// A folder of its own (the default one) holds only this cwd's sessions; a shared one is filtered by cwd.
	const ownFolder = resolve(dir) === resolve(getDefaultSessionDir(c.cwd, c.agentDir));
	let restore = () => {};
	const selector = new SessionSelector({
		folders: (scope) =>
			scope === "current" ? [dir] : ownFolder ? sessionFoldersUnder(getSessionsRoot(c.agentDir)) : [dir],
		...(ownFolder ? {} : { currentCwd: resolve(c.cwd) }),
		...(file ? { currentSessionPath: file } : {}),
		requestRender: () => c.app.tui.requestRender(),
		onSelect: (path) => {
			restore();
			void resumeSession(c, path);
		},
		onCancel: () => {
			restore();
			if (options.atStart) {
				options.onQuit?.();
				c.app.quit(0);
			}
			c.app.tui.requestRender();
		},
		rename: (path, name) => renameSession(c, path, name),
		remove: removeSession,
	});
	restore = c.showSelector(selector);
}

function sessionInfo(c: CommandContext): void {
	const t = theme();
	const stats = sessionStats(c.host);
	const name = c.host.manager.getSessionName();
	const dim = (label: string) => t.fg("dim", label);
	const n = (value: number) => value.toLocaleString();
	let info = `${t.bold("Session Info")}\n\n`;
	if (name) info += `${dim("Name:")} ${name}\n`;
	info += `${dim("File:")} ${stats.sessionFile ?? "In-memory"}\n`;
	info += `${dim("ID:")} ${stats.sessionId}\n\n`;
	info += `${t.bold("Messages")}\n`;
	info += `${dim("Total:")} ${stats.totalMessages}\n`;
	info += `${dim("User:")} ${stats.userMessages}\n`;
	info += `${dim("Assistant:")} ${stats.assistantMessages}\n`;
	info += `${dim("Tools:")} ${stats.toolCalls} calls, ${stats.toolResults} results\n\n`;
	info += `${t.bold("Tokens")}\n`;
	const { input, output, cacheRead, cacheWrite, total } = stats.tokens;
	const prompt = input + cacheRead + cacheWrite;
	info += `${dim("Input:")} ${n(prompt)}\n`;
	if (prompt > 0 && (cacheRead > 0 || cacheWrite > 0)) {
		info += `  ${dim("Cached:")} ${n(cacheRead)} ${dim(`(${((cacheRead / prompt) * 100).toFixed(1)}%)`)}\n`;
		const written = cacheWrite > 0 ? ` ${dim(`(${n(cacheWrite)} written to cache)`)}` : "";
		info += `  ${dim("Uncached:")} ${n(input + cacheWrite)}${written}\n`;
	}
	info += `${dim("Output:")} ${n(output)}\n`;
	info += `${dim("Total:")} ${n(total)}\n`;
	if (stats.cost > 0) info += `\n${t.bold("Cost")}\n${dim("Total:")} $${stats.cost.toFixed(3)}`;
	c.app.chat.addChild(new Text("", 0, 0));
	c.app.chat.addChild(new Text(info.trimEnd(), 1, 0));
}

function fork(c: CommandContext): void {
	const messages = forkMessages(c.host.manager.getBranch()).map((m) => ({ id: m.entryId, text: m.text }));
	if (messages.length === 0) {
		c.app.chat.showStatus("No messages to fork from");
		return;
	}
	let restore = () => {};
	const selector = new UserMessageSelector(
		messages,
		(id) => {
			restore();
			void (async () => {
				try {
					const result = await c.host.fork(id);
					if (!result.cancelled) {
						c.app.defaultEditor.setText(result.selectedText ?? "");
						c.app.chat.showStatus("Forked to new session");
					}
				} catch (error) {
					c.app.chat.showError(errorMessage(error));
				}
				c.app.tui.requestRender();
			})();
		},
		() => {
			restore();
			c.app.tui.requestRender();
		},
		messages[messages.length - 1]?.id,
	);
	restore = c.showSelector(selector);
}

async function clone(c: CommandContext): Promise<void> {
	const leaf = c.host.manager.getLeafId();
	if (!leaf) {
		c.app.chat.showStatus("Nothing to clone yet");
		return;
	}
	const result = await c.host.fork(leaf, { position: "at" });
	if (result.cancelled) return;
	c.app.defaultEditor.setText("");
	c.app.chat.showStatus("Cloned to new session");
}

function confirm(c: CommandContext, title: string, message: string): Promise<boolean> {
	return new Promise((done) => {
		let restore = () => {};
		const finish = (yes: boolean) => {
			restore();
			c.app.tui.requestRender();
			done(yes);
		};
		const dialog = new ExtensionSelectorComponent(
			`${title}\n${message}`,
			["Yes", "No"],
			(option) => finish(option === "Yes"),
			() => finish(false),
		);
		restore = c.showSelector(dialog);
	});
}

async function importSession(c: CommandContext, args: string): Promise<void> {
	const input = args.split(/\s/)[0] ?? "";
	if (!input) {
		c.app.chat.showError("Usage: /import <path.jsonl>");
		return;
	}
	if (!(await confirm(c, "Import session", `Replace current session with ${input}?`))) {
		c.app.chat.showStatus("Import cancelled");
		return;
	}
	const source = resolve(c.cwd, expandHome(input));
	if (!existsSync(source)) {
		c.app.chat.showError(`Failed to import session: File not found: ${source}`);
		return;
	}
	if (!readHeader(source)) {
		c.app.chat.showError(`Failed to import session: ${source}: the first line is not a session header`);
		return;
	}
	const dir = c.host.manager.getSessionDir();
	let target = join(dir, basename(source));
	const stored = resolve(target) === source;
	if (!stored) {
		const { name, ext } = parse(target);
		for (let n = 1; existsSync(target); n++) target = join(dir, `${name}-${n}${ext}`);
	}
	try {
		if (!stored) {
			mkdirSync(dir, { recursive: true });
			copyFileSync(source, target);
		}
		const result = await c.host.switchSession(target);
		if (result.cancelled) {
			if (!stored) unlinkSync(target);
			c.app.chat.showStatus("Import cancelled");
			return;
		}
		c.app.chat.showStatus(`Session imported from: ${input}`);
	} catch (error) {
		// The copy is ours: take it back so a failed import leaves the folder as it was.
		if (!stored && existsSync(target) && c.host.manager.getSessionFile() !== target) unlinkSync(target);
		c.app.chat.showError(`Failed to import session ${source}: ${errorMessage(error)}`);
	}
}

export const SESSION_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "resume",
		description: "Resume another session",
		action: "app.session.resume",
		run: (c) => openResumePicker(c),
	},
	{ name: "session", description: "Show this session's file, id and stats", run: sessionInfo },
	{
		name: "fork",
		description: "Fork a new session from an earlier user message",
		action: "app.session.fork",
		run: fork,
	},
	{ name: "clone", description: "Copy the current branch into a new session", run: clone },
	{
		name: "import",
		description: "Import a session JSONL file and resume it",
		run: importSession,
	},
];
