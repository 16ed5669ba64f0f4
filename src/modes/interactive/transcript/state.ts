/** What the transcript's parts share: the chat container, the component factory, the live turn's components. */
import type { Container } from "../../../tui/index.ts";
import type { AssistantMessageComponent, RenderRequest, ToolExecutionComponent } from "../components/index.ts";
import type { TranscriptFactory } from "./factory.ts";
import type { ChatNotices } from "./notices.ts";

export interface ChatState {
	readonly chat: Container;
	readonly factory: TranscriptFactory;
	readonly notices: ChatNotices;
	readonly ui: RenderRequest;
	/** Tool calls shown but not finished yet, by tool call id. */
	readonly pendingTools: Map<string, ToolExecutionComponent>;
	/** The assistant message being streamed, if any. */
	streaming: AssistantMessageComponent | undefined;
	/** The retry attempt in progress (from `auto_retry_start` until `auto_retry_end`), 0 when none. */
	retryAttempt: number;
	onHistoryUserText: ((text: string) => void) | undefined;
}
