/**
 * pi's `AgentSessionRuntime`: owns the current SDK session and its cwd-bound services, and replaces them for a new
 * session, a switch to another file, a fork or an imported file. Every replacement asks the extensions first
 * (`session_before_switch` / `session_before_fork` may cancel), settles the running turn into the old file, sends
 * `session_shutdown` (reason and target file), disposes the old session, then builds the next one with the same
 * factory (services included, for the target's cwd) and rebinds it (`setRebindSession`). The factory's session
 * fires `session_start` when bound.
 */
import { basename, join, parse, resolve } from "node:path";
import { SessionManager } from "../session/index.ts";
import { copyFileSync, existsSync, mkdirSync } from "../util/index.ts";
import type { AgentSessionRuntimeDiagnostic, AgentSessionServices } from "./agent-session-services.ts";
import { messageText } from "./prompt-input.ts";
import type { SdkAgentSession } from "./sdk-agent-session.ts";
import type { SdkSessionResult } from "./sdk-session.ts";

type StartReason = "new" | "resume" | "fork" | "reload";

export interface SessionRuntimeTarget {
	cwd: string;
	agentDir: string;
	sessionManager: SessionManager;
	sessionStartEvent?: { type: "session_start"; reason: StartReason | "startup"; previousSessionFile?: string };
}

export interface CreateAgentSessionRuntimeResult extends SdkSessionResult {
	services: AgentSessionServices;
	diagnostics: AgentSessionRuntimeDiagnostic[];
}

export type CreateAgentSessionRuntimeFactory = (
	options: SessionRuntimeTarget,
) => Promise<CreateAgentSessionRuntimeResult>;

type WithSession = (ctx: Record<string, unknown>) => Promise<void>;

/** Thrown by `importFromJsonl` for a file that does not exist. */
export class SessionImportFileNotFoundError extends Error {
	constructor(readonly filePath: string) {
		super(`File not found: ${filePath}`);
		this.name = "SessionImportFileNotFoundError";
	}
}

export class AgentSessionRuntime {
	private rebindSession: ((session: SdkAgentSession) => Promise<void>) | undefined;
	private beforeSessionInvalidate: (() => void) | undefined;

	constructor(
		private _session: SdkAgentSession,
		private _services: AgentSessionServices,
		private readonly createRuntime: CreateAgentSessionRuntimeFactory,
		private _diagnostics: AgentSessionRuntimeDiagnostic[] = [],
		private _modelFallbackMessage?: string,
	) {}

	get services(): AgentSessionServices {
		return this._services;
	}
	get session(): SdkAgentSession {
		return this._session;
	}
	get cwd(): string {
		return this._services.cwd;
	}
	get diagnostics(): readonly AgentSessionRuntimeDiagnostic[] {
		return this._diagnostics;
	}
	get modelFallbackMessage(): string | undefined {
		return this._modelFallbackMessage;
	}

	/** Runs after every replacement, before `withSession` (a mode rebinds its subscriptions here). */
	setRebindSession(rebindSession?: (session: SdkAgentSession) => Promise<void>): void {
		this.rebindSession = rebindSession;
	}

	/** Runs after `session_shutdown` handlers and before the old session is disposed; must not yield. */
	setBeforeSessionInvalidate(beforeSessionInvalidate?: () => void): void {
		this.beforeSessionInvalidate = beforeSessionInvalidate;
	}

	async switchSession(
		sessionPath: string,
		options: { cwdOverride?: string; withSession?: WithSession } = {},
	): Promise<{ cancelled: boolean }> {
		if (await this.cancelled("session_before_switch", { reason: "resume", targetSessionFile: sessionPath })) {
			return { cancelled: true };
		}
		const target = resolve(sessionPath);
		if (!existsSync(target)) throw new Error(`Session file not found: ${target}`);
		const previousSessionFile = this._session.sessionFile;
		// The same file: let go of it first, or our own lock would refuse us.
		if (previousSessionFile === target) this._session.sessionManager.close();
		const sessionManager = SessionManager.open(target, undefined, options.cwdOverride, { onLocked: "throw" });
		await this.replace("resume", sessionManager, previousSessionFile, sessionManager.getCwd());
		await this.finish(options.withSession);
		return { cancelled: false };
	}

	async newSession(
		options: {
			parentSession?: string;
			setup?: (sessionManager: SessionManager) => Promise<void>;
			withSession?: WithSession;
		} = {},
	): Promise<{ cancelled: boolean }> {
		if (await this.cancelled("session_before_switch", { reason: "new" })) return { cancelled: true };
		const old = this._session.sessionManager;
		const previousSessionFile = this._session.sessionFile;
		const sessionManager = old.isPersisted()
			? SessionManager.create(this.cwd, old.getSessionDir())
			: SessionManager.inMemory(this.cwd);
		if (options.parentSession) sessionManager.newSession({ parentSession: options.parentSession });
		await this.replace("new", sessionManager, previousSessionFile, this.cwd);
		if (options.setup) await options.setup(this._session.sessionManager);
		await this.finish(options.withSession);
		return { cancelled: false };
	}

	async fork(
		entryId: string,
		options: { position?: "before" | "at"; withSession?: WithSession } = {},
	): Promise<{ cancelled: boolean; selectedText?: string }> {
		const position = options.position ?? "before";
		if (await this.cancelled("session_before_fork", { entryId, position })) return { cancelled: true };
		const manager = this._session.sessionManager;
		const entry = manager.getEntry(entryId);
		if (!entry) throw new Error("Invalid entry ID for forking");
		let targetLeaf: string | null = entry.id;
		let selectedText: string | undefined;
		if (position === "before") {
			if (entry.type !== "message" || entry.message.role !== "user") throw new Error("Invalid entry ID for forking");
			targetLeaf = entry.parentId;
			selectedText = messageText(entry.message as never, "");
		}
		const previousSessionFile = this._session.sessionFile;
		await this.replace("fork", manager, previousSessionFile, this.cwd, () => {
			if (targetLeaf === null) manager.newSession(previousSessionFile ? { parentSession: previousSessionFile } : {});
			else manager.createBranchedSession(targetLeaf);
		});
		await this.finish(options.withSession);
		return { cancelled: false, ...(selectedText !== undefined ? { selectedText } : {}) };
	}

	/** Copies a session file into this session folder (never over another file) and switches to it. */
	async importFromJsonl(inputPath: string, cwdOverride?: string): Promise<{ cancelled: boolean }> {
		const source = resolve(inputPath);
		if (!existsSync(source)) throw new SessionImportFileNotFoundError(source);
		const dir = this._session.sessionManager.getSessionDir();
		mkdirSync(dir, { recursive: true });
		let destination = join(dir, basename(source));
		const alreadyStored = resolve(destination) === source;
		if (!alreadyStored) {
			const { name, ext } = parse(destination);
			for (let n = 1; existsSync(destination); n++) destination = join(dir, `${name}-${n}${ext}`);
		}
		if (await this.cancelled("session_before_switch", { reason: "resume", targetSessionFile: destination })) {
			return { cancelled: true };
		}
		const previousSessionFile = this._session.sessionFile;
		if (!alreadyStored) copyFileSync(source, destination);
		const sessionManager = SessionManager.open(destination, dir, cwdOverride, { onLocked: "throw" });
		await this.replace("resume", sessionManager, previousSessionFile, sessionManager.getCwd());
		await this.finish();
		return { cancelled: false };
	}

	/**
	 * Builds the session again on the same file with fresh services (extensions, skills, prompts and themes read
	 * again): `ctx.reload()` of print mode. Not one of pi's runtime methods (pi reloads inside its session).
	 */
	async reload(): Promise<void> {
		const manager = this._session.sessionManager;
		await this.replace("reload", manager, undefined, this.cwd, () => {});
		await this.finish();
	}

	/** `session_shutdown` (reason "quit"), then the session is disposed and its file closed. */
	async dispose(): Promise<void> {
		await this._session.shutdownExtensions("quit");
		this.beforeSessionInvalidate?.();
		this._session.dispose();
	}

	private async cancelled(event: string, payload: Record<string, unknown>): Promise<boolean> {
		const result = (await this._session.emitToExtensions(event, payload)) as { cancel?: boolean } | undefined;
		return result?.cancel === true;
	}

	private async replace(
		reason: StartReason,
		sessionManager: SessionManager,
		previousSessionFile: string | undefined,
		cwd: string,
		beforeBuild?: () => void,
	): Promise<void> {
		const old = this._session;
		// The running turn settles (its messages land in the old file) before anything changes.
		old.abort();
		await old.agent.waitForIdle();
		// A fork's new file exists before `session_shutdown`, which names it as the target (as pi's does).
		beforeBuild?.();
		const target = reason === "reload" ? undefined : sessionManager.getSessionFile();
		await old.shutdownExtensions(reason, target);
		this.beforeSessionInvalidate?.();
		old.disposeKeepingSessionFile();
		if (old.sessionManager !== sessionManager) old.sessionManager.close();
		const next = await this.createRuntime({
			cwd,
			agentDir: this._services.agentDir,
			sessionManager,
			sessionStartEvent: { type: "session_start", reason, ...(previousSessionFile ? { previousSessionFile } : {}) },
		});
		this._session = next.session;
		this._services = next.services;
		this._diagnostics = next.diagnostics;
		this._modelFallbackMessage = next.modelFallbackMessage;
	}

	private async finish(withSession?: WithSession): Promise<void> {
		if (this.rebindSession) await this.rebindSession(this._session);
		if (withSession) await withSession(this._session.createReplacedSessionContext());
	}
}

/** Builds the first session with the factory and returns the runtime that will replace it later. */
export async function createAgentSessionRuntime(
	createRuntime: CreateAgentSessionRuntimeFactory,
	options: SessionRuntimeTarget,
): Promise<AgentSessionRuntime> {
	if (!existsSync(options.cwd)) throw new Error(`Session working directory does not exist: ${options.cwd}`);
	const result = await createRuntime(options);
	return new AgentSessionRuntime(
		result.session,
		result.services,
		createRuntime,
		result.diagnostics,
		result.modelFallbackMessage,
	);
}
