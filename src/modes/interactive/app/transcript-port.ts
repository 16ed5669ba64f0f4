/**
 * What the app needs from the chat region. `ChatTranscript` (transcript/) is the full implementation; until it is
 * wired, `BasicTranscript` shows user messages and assistant replies as they stream, and status lines.
 */
import type { SessionEvent } from "../../../runtime/index.ts";
import { type Component, Container, Spacer, Text } from "../../../tui/index.ts";
import { AssistantMessageComponent, UserMessageComponent } from "../components/index.ts";
import { theme } from "../components/style.ts";

export interface TranscriptPort extends Component {
	addChild(component: Component): void;
	removeChild(component: Component): void;
	handleEvent(event: SessionEvent): void;
	/** Draws a resumed session's messages. */
	renderHistory(messages: readonly unknown[]): void;
	showStatus(text: string): void;
	showWarning(text: string): void;
	showError(text: string): void;
	setToolsExpanded(expanded: boolean): void;
	setHideThinking(hide: boolean): void;
	setHiddenThinkingLabel(label?: string): void;
	clear(): void;
}

type Message = { role: string; content?: unknown; stopReason?: string; errorMessage?: string };

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b): b is { type: "text"; text: string } => b?.type === "text")
		.map((b) => b.text)
		.join("\n");
}

export class BasicTranscript extends Container implements TranscriptPort {
	private streaming: AssistantMessageComponent | undefined;
	private lastStatus: Component | undefined;
	private hideThinking = false;
	private hiddenLabel = "Thinking...";

	handleEvent(event: SessionEvent): void {
		if (event.type === "message_start" || event.type === "message_update" || event.type === "message_end") {
			const message = event.message as Message;
			if (message.role === "user" && event.type === "message_start") this.addMessage(message);
			if (message.role !== "assistant") return;
			if (!this.streaming) {
				this.streaming = new AssistantMessageComponent(undefined, this.hideThinking, undefined, this.hiddenLabel);
				this.addChild(this.streaming);
			}
			this.streaming.updateContent(message as never);
			if (event.type === "message_end") this.streaming = undefined;
		}
	}

	renderHistory(messages: readonly unknown[]): void {
		for (const message of messages) this.addMessage(message as Message);
	}

	private addMessage(message: Message): void {
		this.lastStatus = undefined;
		if (message.role === "user") {
			const text = textOf(message.content);
			if (text) this.addChild(new UserMessageComponent(text));
		} else if (message.role === "assistant") {
			this.addChild(new AssistantMessageComponent(message as never, this.hideThinking, undefined, this.hiddenLabel));
		}
	}

	showStatus(text: string): void {
		if (this.lastStatus && this.children.at(-1) === this.lastStatus) {
			this.removeChild(this.lastStatus);
			this.removeChild(this.children.at(-1) as Component);
		}
		const line = new Text(theme().fg("dim", text), 1, 0);
		this.addChild(new Spacer(1));
		this.addChild(line);
		this.lastStatus = line;
	}

	showWarning(text: string): void {
		this.addChild(new Spacer(1));
		this.addChild(new Text(theme().fg("warning", `Warning: ${text}`), 1, 0));
		this.lastStatus = undefined;
	}

	showError(text: string): void {
		this.addChild(new Spacer(1));
		this.addChild(new Text(theme().fg("error", `Error: ${text}`), 1, 0));
		this.lastStatus = undefined;
	}

	setToolsExpanded(_expanded: boolean): void {}

	setHideThinking(hide: boolean): void {
		this.hideThinking = hide;
	}

	setHiddenThinkingLabel(label?: string): void {
		this.hiddenLabel = label ?? "Thinking...";
	}
}
