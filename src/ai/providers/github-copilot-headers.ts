/**
 * The per-request headers GitHub Copilot expects on every API it serves (pi-ai 0.87.1): `X-Initiator` says whether
 * the user ("user": the last message is the user's) or the agent (a follow-up after assistant/tool messages) sent
 * the request, `Openai-Intent: conversation-edits`, and `Copilot-Vision-Request: true` when a user message or tool
 * result carries an image. The static identity headers (Editor-Version, Copilot-Integration-Id, …) come with the
 * catalogue's models. Empty for every other provider.
 */
import type { Model } from "../types.ts";

/** Any transcript message: only its role and content are read. */
type AnyMessage = { role: string; content?: unknown };

function hasImage(message: AnyMessage): boolean {
	if (message.role !== "user" && message.role !== "toolResult") return false;
	return Array.isArray(message.content) && message.content.some((part) => part?.type === "image");
}

export function copilotRequestHeaders(
	model: Pick<Model, "provider">,
	messages: readonly AnyMessage[],
): Record<string, string> {
	if (model.provider !== "github-copilot") return {};
	const last = messages[messages.length - 1];
	const headers: Record<string, string> = {
		"X-Initiator": last && last.role !== "user" ? "agent" : "user",
		"Openai-Intent": "conversation-edits",
	};
	if (messages.some(hasImage)) headers["Copilot-Vision-Request"] = "true";
	return headers;
}
