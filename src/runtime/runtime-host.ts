/**
 * The runtime host: owns the current session runtime and replaces it as pi does for a new session, a switch to
 * another file, a fork, a clone and a reload. Replacement order (pi 0.73+): `session_before_switch` /
 * `session_before_fork` may cancel; the running turn is aborted and settles into the old file;
 * `session_shutdown` (with the reason and target file) goes to the old extensions, whose `pi`/`ctx` objects then
 * go stale; the extension factories run again; a new runtime is built on the new session file; `session_start`
 * (reason new/resume/fork/reload) goes to the new extensions. Listeners subscribed here follow every replacement.
 */

import { resolve } from "node:path";
import type { AgentMessage } from "../agent/index.ts";
import { SessionManager } from "../session/index.ts";
import { existsSync } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";
import type { CompactionOutcome } from "./compaction-run.ts";
import type { SessionEvent, SessionListener } from "./events.ts";
import type { ExtensionBridge, SessionControl, SessionStartInfo } from "./extension-bridge.ts";
import type { ExtensionHost } from "./extension-host.ts";
import { type CustomMessageInput, messageText, type StreamingBehavior } from "./prompt-input.ts";

/** One session's runtime: its file, its agent session (absent without a usable model) and its extension bridge. */
export interface SessionRuntime {
	readonly manager: SessionManager;
	readonly session: AgentSession | undefined;
	readonly bridge: ExtensionBridge;
	/** Why there is no agent session (no model / no key). */
	readonly noModelReason?: string;
	/** Manual compaction (`/compact`, RPC `compact`); absent without a session. */
	compact?(customInstructions?: string): Promise<CompactionOutcome | undefined>;
	/** The automatic-compaction switch (`set_auto_compaction`); absent without a session. */
	readonly compactionSettings?: { enabled: boolean };
	/** Stops listening to the session (called when the runtime is replaced). */
	dispose(): void;
}

/** Builds a runtime for a session file; the host calls it at start-up and on every replacement. */
export type RuntimeFactory = (manager: SessionManager, host: RuntimeHost) => Promise<SessionRuntime>;

type ShutdownReason = "quit" | "reload" | "new" | "resume" | "fork";

/**
 * Runs after each runtime's `session_start` (start-up and every replacement): the mode's `resources_discover`
 * (reason "reload" after a reload, else "startup", as pi emits it) and the system prompt rebuild.
 */
export type RuntimeStartedHook = (runtime: SessionRuntime, start: SessionStartInfo) => Promise<void>;
type WithSession = (ctx: unknown) => Promise<void>;

export class RuntimeHost implements SessionControl {
	private runtime!: SessionRuntime;
	private readonly listeners = new Set<SessionListener>();
	private unsubscribe: (() => void) | undefined;
	private disposed = false;
	private readonly replaceHooks = { before: new Set<() => void>(), after: new Set<() => void>() };

	private constructor(
		private readonly factory: RuntimeFactory,
		readonly extensions: ExtensionHost,
		private readonly report: (line: string) => void,
		private readonly started: RuntimeStartedHook | undefined,
	) {}

	/** Builds the first runtime and fires `session_start` (reason "startup"). */
	static async start(
		factory: RuntimeFactory,
		manager: SessionManager,
		extensions: ExtensionHost,
		report: (line: string) => void = () => {},
		started?: RuntimeStartedHook,
	): Promise<RuntimeHost> {
		const host = new RuntimeHost(factory, extensions, report, started);
		await host.install(await factory(manager, host), { reason: "startup" });
		return host;
	}

	get current(): SessionRuntime {
		return this.runtime;
	}

	get session(): AgentSession | undefined {
		return this.runtime.session;
	}

	get manager(): SessionManager {
		return this.runtime.manager;
	}

	/** Session events of whichever runtime is current. */
	subscribe(listener: SessionListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * Hooks around a replacement (new session, switch, fork, clone, reload): "before" runs once the old extensions
	 * got `session_shutdown` and before the new ones start (a UI drops what they drew); "after" once the new
	 * runtime is installed and its `session_start` ran (a UI draws the new session). Returns the unsubscribe.
	 */
	onReplace(phase: "before" | "after", hook: () => void): () => void {
		this.replaceHooks[phase].add(hook);
		return () => this.replaceHooks[phase].delete(hook);
	}

	private runHooks(phase: "before" | "after"): void {
		for (const hook of this.replaceHooks[phase]) {
			try {
				hook();
			} catch (error) {
				this.report(`pi: ${phase === "before" ? "session teardown" : "session display"}: ${String(error)}`);
			}
		}
	}

	async newSession(options: { parentSession?: string; withSession?: WithSession } = {}) {
		if (await this.cancelledBy("session_before_switch", { reason: "new" })) return { cancelled: true };
		const old = this.runtime.manager;
		const previousSessionFile = old.getSessionFile();
		const manager = old.isPersisted()
			? SessionManager.create(old.getCwd(), old.getSessionDir())
			: SessionManager.inMemory(old.getCwd());
		if (options.parentSession) manager.newSession({ parentSession: options.parentSession });
		await this.replace(manager, "new", { reason: "new", ...opt(previousSessionFile) }, options.withSession);
		return { cancelled: false };
	}

	async switchSession(sessionPath: string, options: { withSession?: WithSession } = {}) {
		const target = resolve(sessionPath);
		if (!existsSync(target)) throw new Error(`Session file not found: ${target}`);
		if (await this.cancelledBy("session_before_switch", { reason: "resume", targetSessionFile: target })) {
			return { cancelled: true };
		}
		const old = this.runtime.manager;
		const previousSessionFile = old.getSessionFile();
		// The same file: let go of it first, or our own lock would refuse us.
		if (previousSessionFile === target) old.close();
		const manager = SessionManager.open(target, old.getSessionDir(), undefined, { onLocked: "throw" });
		await this.replace(manager, "resume", { reason: "resume", ...opt(previousSessionFile) }, options.withSession);
		return { cancelled: false };
	}

	/**
	 * A new session from an entry of the current one. position "before" (the default, `fork`): the branch up to
	 * the parent of a user message, whose text is returned for editing; "at" (`clone`): the branch up to and
	 * including the entry.
	 */
	async fork(
		entryId: string,
		options: { position?: "before" | "at"; withSession?: WithSession } = {},
	): Promise<{ cancelled: boolean; selectedText?: string }> {
		const position = options.position ?? "before";
		const manager = this.runtime.manager;
		const entry = manager.getEntry(entryId);
		let targetLeaf: string | null;
		let selectedText: string | undefined;
		if (!entry) throw new Error("Invalid entry ID for forking");
		if (position === "at") targetLeaf = entry.id;
		else {
			if (entry.type !== "message" || entry.message.role !== "user") throw new Error("Invalid entry ID for forking");
			targetLeaf = entry.parentId;
			selectedText = messageText(entry.message as AgentMessage, "");
		}
		if (await this.cancelledBy("session_before_fork", { entryId, position })) return { cancelled: true };
		const previousSessionFile = manager.getSessionFile();
		await this.replace(manager, "fork", { reason: "fork", ...opt(previousSessionFile) }, options.withSession, () => {
			if (targetLeaf === null) manager.newSession(previousSessionFile ? { parentSession: previousSessionFile } : {});
			else manager.createBranchedSession(targetLeaf);
		});
		return { cancelled: false, ...(selectedText !== undefined ? { selectedText } : {}) };
	}

	/** The current branch, as a new session (`clone`). */
	async clone(options: { withSession?: WithSession } = {}): Promise<{ cancelled: boolean }> {
		const leaf = this.runtime.manager.getLeafId();
		if (!leaf) throw new Error("Cannot clone session: no current entry selected");
		return this.fork(leaf, { position: "at", ...options });
	}

	/** `/reload`: extension files are imported again and the runtime rebuilt on the same session. */
	async reload(): Promise<void> {
		const manager = this.runtime.manager;
		await this.replace(manager, "reload", { reason: "reload" }, undefined, undefined, true);
	}

	/** `session_shutdown` (reason "quit"), then the session file is closed. Idempotent. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		try {
			const session = this.runtime.session;
			if (session?.isStreaming) {
				session.abort();
				await session.agent.waitForIdle();
			}
			await this.runtime.bridge.shutdown("quit");
		} finally {
			this.unsubscribe?.();
			this.runtime.dispose();
			this.runtime.manager.close();
		}
	}

	private async cancelledBy(
		event: "session_before_switch" | "session_before_fork",
		payload: Record<string, unknown>,
	): Promise<boolean> {
		const runner = this.runtime.bridge.runner;
		if (!runner.hasHandlers(event)) return false;
		const result = (await runner.emit(event, payload as never, this.runtime.bridge.scope.context())) as
			| { cancel?: boolean }
			| undefined;
		return result?.cancel === true;
	}

	private async replace(
		manager: SessionManager,
		reason: ShutdownReason,
		start: SessionStartInfo,
		withSession: WithSession | undefined,
		beforeBuild?: () => void,
		reimport = false,
	): Promise<void> {
		const old = this.runtime;
		// A running turn is aborted and settles (its messages land in the old file) before anything changes.
		if (old.session) {
			old.session.abort();
			await old.session.agent.waitForIdle();
		}
		const target = beforeBuild ? undefined : manager.getSessionFile();
		await old.bridge.shutdown(reason, target);
		this.runHooks("before");
		this.unsubscribe?.();
		old.dispose();
		if (old.manager !== manager) old.manager.close();
		beforeBuild?.();
		for (const line of await this.extensions.reinstantiate({ reimport })) this.report(line);
		await this.install(await this.factory(manager, this), start);
		this.runHooks("after");
		if (withSession) await withSession(this.replacedContext());
	}

	private async install(runtime: SessionRuntime, start: SessionStartInfo): Promise<void> {
		this.runtime = runtime;
		runtime.bridge.control = this;
		this.unsubscribe = runtime.session?.subscribe((event) => this.fanOut(event));
		await runtime.bridge.start(start);
		await this.started?.(runtime, start);
	}

	/**
	 * What `withSession` receives after a replacement: the new session's command context, plus `sendMessage` and
	 * `sendUserMessage` bound to the new session (returning promises, so the callback can await the run).
	 */
	private replacedContext(): Record<string, unknown> {
		const base = this.runtime.bridge.scope.commandContext() as unknown as object;
		const ctx = Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)) as Record<string, unknown>;
		const session = () => {
			const current = this.runtime.session;
			if (!current) throw new Error(this.runtime.noModelReason ?? "No model available");
			return current;
		};
		ctx.sendMessage = async (message: CustomMessageInput, options?: Parameters<AgentSession["sendCustomMessage"]>[1]) =>
			session().sendCustomMessage(message, options);
		ctx.sendUserMessage = async (content: string | { type: string }[], options?: { deliverAs?: StreamingBehavior }) =>
			session().sendUserMessage(content, options?.deliverAs);
		return ctx;
	}

	private async fanOut(event: SessionEvent): Promise<void> {
		for (const listener of [...this.listeners]) await listener(event);
	}
}

function opt(previousSessionFile: string | undefined): { previousSessionFile?: string } {
	return previousSessionFile ? { previousSessionFile } : {};
}
