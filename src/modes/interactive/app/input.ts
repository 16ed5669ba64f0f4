/**
 * What the user's keys and submissions do (pi 0.87.1's rules): Enter sends, or while the agent runs queues a
 * steering message; the follow-up key queues a follow-up; the dequeue key brings queued texts back; Escape aborts
 * (or cancels bash, leaves bash mode, or — twice on an empty editor — opens the tree or fork); Ctrl+C clears and
 * twice quits; Ctrl+D quits on an empty editor; `!cmd` / `!!cmd` run a shell command; `/name` runs an extension
 * command at once, even while the agent runs.
 */
import type { AgentSession } from "../../../runtime/index.ts";
import { runUserBash } from "../../../runtime/index.ts";
import type { Component } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { parseSlashCommand } from "../../prompts.ts";
import { BashExecutionComponent } from "../components/index.ts";
import type { AppRuntime, InteractiveApp } from "./app.ts";
import { readClipboardForPaste } from "./clipboard-paste.ts";
import { CompactionQueue } from "./compaction-queue.ts";
import type { SessionView } from "./session-view.ts";
import type { StatusArea } from "./status-area.ts";

const DOUBLE_PRESS_MS = 500;

export interface InputHooks {
	/** Built-in slash commands; returns true when `text` was one. */
	builtin?(text: string): Promise<boolean> | boolean;
	/** The double-Escape action (tree or fork selector); absent until the selectors exist. */
	doubleEscape?(action: "tree" | "fork"): void;
	/** An extension error to show in the chat. */
	extensionError(source: string, error: unknown): void;
}

export class InputController {
	private lastClear = 0;
	private lastEscape = 0;
	private bash: AbortController | undefined;
	/** `!cmd` output run while streaming waits in the pending area; the next idle submission moves it to the chat. */
	private readonly pendingBash: Component[] = [];
	private shuttingDown = false;
	private readonly compactionQueue = new CompactionQueue({
		runExtensionCommand: (text) => this.runExtensionCommand(text),
		changed: () => this.showPending(),
		error: (message) => {
			this.app.chat.showError(message);
			this.app.tui.requestRender();
		},
	});

	constructor(
		private readonly app: InteractiveApp,
		private readonly runtime: AppRuntime,
		private readonly view: SessionView,
		private readonly status: StatusArea,
		private readonly hooks: InputHooks,
	) {}

	private get session(): AgentSession | undefined {
		return this.runtime.host.session;
	}

	/** Installs the handlers on the default editor (extension editors copy them, see surface). */
	install(): void {
		const editor = this.app.defaultEditor;
		editor.onSubmit = (text) => void this.submit(text);
		editor.onEscape = () => this.escape();
		editor.onCtrlD = () => this.quit();
		editor.onAction("app.clear", () => this.clear());
		editor.onAction("app.message.followUp", () => void this.followUp());
		editor.onAction("app.message.dequeue", () => this.dequeue());
		editor.onAction("app.tools.expand", () => this.app.setToolsExpanded(!this.app.toolsExpanded));
		editor.onAction("app.thinking.toggle", () => this.app.toggleThinking());
		editor.onAction("app.suspend", () => this.app.suspend());
		editor.onAction("app.editor.external", () => void this.app.openExternalEditor());
		editor.onPasteImage = () => void this.pasteFromClipboard();
		this.app.onStop(
			this.runtime.host.subscribe((event) => {
				if (event.type !== "compaction_end" || !this.session) return;
				void this.compactionQueue.flush(this.session, event.willRetry === true);
			}),
		);
		editor.onChange = (text) => {
			const bashMode = text.trimStart().startsWith("!");
			if (bashMode !== this.view.bashMode) {
				this.view.bashMode = bashMode;
				this.view.updateBorderColor();
			}
		};
	}

	private editorText(): string {
		const editor = this.app.editor;
		return editor.getExpandedText?.() ?? editor.getText();
	}

	async submit(raw: string): Promise<void> {
		const text = raw.trim();
		if (!text) return;
		const editor = this.app.editor;
		try {
			if (text === "/quit") {
				editor.setText("");
				this.quit();
				return;
			}
			if (await this.hooks.builtin?.(text)) {
				editor.setText("");
				return;
			}
			if (text.startsWith("!")) {
				const excluded = text.startsWith("!!");
				const command = text.slice(excluded ? 2 : 1).trim();
				if (command) {
					if (this.bash) {
						this.app.chat.showWarning("A bash command is already running. Press Esc to cancel it first.");
						editor.setText(text);
						return;
					}
					editor.addToHistory?.(text);
					editor.setText("");
					await this.runBash(command, excluded);
					return;
				}
			}
			editor.addToHistory?.(text);
			editor.setText("");
			if (await this.runExtensionCommand(text)) return;
			const session = this.session;
			if (this.queueWhileCompacting(text, "steer")) return;
			if (!session?.isStreaming) this.flushPendingBash();
			if (!session) {
				this.app.chat.showError(this.runtime.host.current.noModelReason ?? "No model available");
				return;
			}
			if (session.isStreaming) {
				await session.prompt(text, { streamingBehavior: "steer" });
				return;
			}
			await session.prompt(text);
		} catch (error) {
			this.app.chat.showError(errorMessage(error));
		} finally {
			this.app.tui.requestRender();
		}
	}

	/** `/name args` of an extension command: runs now (also while streaming); true when it was one. */
	private async runExtensionCommand(text: string): Promise<boolean> {
		const slash = parseSlashCommand(text);
		const definition = slash && this.runtime.extensions.findCommand(slash.name);
		if (!slash || !definition) return false;
		try {
			await definition.handler(slash.args, this.runtime.host.current.bridge.scope.commandContext());
		} catch (error) {
			this.hooks.extensionError(`command:${slash.name}`, error);
		}
		return true;
	}

	private async followUp(): Promise<void> {
		const text = this.editorText().trim();
		if (!text) return;
		const session = this.session;
		const editor = this.app.editor;
		if ((session?.compacting ?? 0) > 0) {
			editor.addToHistory?.(text);
			editor.setText("");
			if (!(await this.runExtensionCommand(text))) this.queueWhileCompacting(text, "followUp");
			return;
		}
		if (session?.isStreaming) {
			editor.addToHistory?.(text);
			editor.setText("");
			if (await this.runExtensionCommand(text)) return;
			try {
				await session.prompt(text, { streamingBehavior: "followUp" });
			} catch (error) {
				this.app.chat.showError(errorMessage(error));
			}
			return;
		}
		editor.setText("");
		await this.submit(text);
	}

	/** While compacting, `text` waits for the compaction to end (see compaction-queue.ts); true when queued. */
	private queueWhileCompacting(text: string, mode: "steer" | "followUp"): boolean {
		if ((this.session?.compacting ?? 0) === 0) return false;
		this.compactionQueue.push(text, mode);
		this.app.chat.showStatus("Queued message for after compaction");
		return true;
	}

	/** The pending area: the session's queues and what waits for the compaction. */
	private showPending(): void {
		const queued = this.session?.queuedTexts() ?? { steering: [], followUp: [] };
		const waiting = this.compactionQueue.texts();
		this.status.showPending([...queued.steering, ...waiting.steering], [...queued.followUp, ...waiting.followUp]);
		this.app.tui.requestRender();
	}

	/** Every queued steering and follow-up text, put back before the editor's text; returns how many. */
	restoreQueued(abort: boolean): number {
		const session = this.session;
		const queued = session?.queuedTexts() ?? { steering: [], followUp: [] };
		const waiting = this.compactionQueue.size > 0 ? this.compactionQueue.take() : { steering: [], followUp: [] };
		const all = [...queued.steering, ...waiting.steering, ...queued.followUp, ...waiting.followUp];
		if (all.length > 0) {
			void session?.clearQueue();
			const editor = this.app.editor;
			editor.setText([all.join("\n\n"), editor.getText()].filter((t) => t.trim()).join("\n\n"));
			this.status.showPending([], []);
		}
		if (abort) session?.abort();
		return all.length;
	}

	private dequeue(): void {
		const restored = this.restoreQueued(false);
		this.app.chat.showStatus(
			restored === 0
				? "No queued messages to restore"
				: `Restored ${restored} queued message${restored > 1 ? "s" : ""} to editor`,
		);
		this.app.tui.requestRender();
	}

	escape(): void {
		const session = this.session;
		// While compacting (by request or automatically) Escape cancels the compaction, as pi's handler does.
		if ((session?.compacting ?? 0) > 0) {
			session?.abort();
			return;
		}
		if (session?.isStreaming) {
			this.restoreQueued(true);
			return;
		}
		if (this.bash) {
			this.bash.abort();
			return;
		}
		if (this.view.bashMode) {
			this.app.editor.setText("");
			this.view.bashMode = false;
			this.view.updateBorderColor();
			return;
		}
		if (this.app.editor.getText().trim()) return;
		const action = this.app.settings.doubleEscapeAction;
		if (action === "none") return;
		const now = Date.now();
		if (now - this.lastEscape < DOUBLE_PRESS_MS) {
			this.lastEscape = 0;
			this.hooks.doubleEscape?.(action);
		} else {
			this.lastEscape = now;
		}
	}

	clear(): void {
		const now = Date.now();
		if (now - this.lastClear < DOUBLE_PRESS_MS) {
			this.quit();
			return;
		}
		this.lastClear = now;
		this.app.editor.setText("");
		this.app.tui.requestRender();
	}

	quit(): void {
		if (this.shuttingDown) return;
		this.shuttingDown = true;
		this.app.quit(0);
	}

	private flushPendingBash(): void {
		for (const component of this.pendingBash.splice(0)) {
			this.app.layout.pending.removeChild(component);
			this.app.chat.appendComponent(component);
		}
	}

	private async pasteFromClipboard(): Promise<void> {
		const outcome = await readClipboardForPaste();
		const editor = this.app.editor;
		if (outcome.type === "image") editor.insertTextAtCursor?.(outcome.path);
		else if (outcome.type === "text")
			(editor as { handleInput?(data: string): void }).handleInput?.(`\x1b[200~${outcome.text}\x1b[201~`);
		else this.app.chat.showStatus(outcome.reason);
		this.app.tui.requestRender();
	}

	private async runBash(command: string, excluded: boolean): Promise<void> {
		const session = this.session;
		if (!session) {
			this.app.chat.showError(this.runtime.host.current.noModelReason ?? "No model available");
			return;
		}
		const component = new BashExecutionComponent(command, this.app.tui, excluded);
		const target = session.isStreaming ? this.app.layout.pending : this.app.chat;
		target.addChild(component);
		if (session.isStreaming) this.pendingBash.push(component);
		this.app.tui.requestRender();
		const controller = new AbortController();
		this.bash = controller;
		try {
			const result = await runUserBash(command, {
				session,
				manager: this.runtime.host.manager,
				cwd: this.runtime.cwd,
				runner: this.runtime.host.current.bridge.runner,
				context: () => this.runtime.host.current.bridge.scope.context(),
				excludeFromContext: excluded,
				...(this.app.settings.shellPath ? { shellPath: this.app.settings.shellPath } : {}),
				signal: controller.signal,
				onData: (chunk) => {
					component.appendOutput(chunk);
					this.app.tui.requestRender();
				},
			});
			component.setComplete(
				result.exitCode,
				result.cancelled,
				result.truncated ? { truncated: true } : undefined,
				result.fullOutputPath,
			);
		} catch (error) {
			target.removeChild(component);
			this.app.chat.showError(errorMessage(error));
		} finally {
			if (this.bash === controller) this.bash = undefined;
			this.view.bashMode = false;
			this.view.updateBorderColor();
			this.app.tui.requestRender();
		}
	}
}
