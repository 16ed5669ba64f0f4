/**
 * Images entering a session, as pi 0.87.1 treats them (settings `images.autoResize` and `images.blockImages`):
 * - tool results: every image a tool returns (extension tools, MCP bridges, screenshots) is processed once, after
 *   the `tool_result` hook, so an oversized one cannot make every later request fail; a block that cannot be
 *   processed stays as it came;
 * - prompt images: processed after `before_agent_start`, their hints (or "[Image omitted: …]") appended to the
 *   prompt text after a blank line;
 * - with `blockImages`, no image leaves for the provider: each becomes "Image reading is disabled." (once per run of
 *   consecutive ones) in user and tool-result messages.
 */
import type { AfterToolCallContext, AfterToolCallResult } from "../agent/index.ts";
import type { ImageContent, TextContent, TranscriptMessage } from "../ai/index.ts";
import { normalizeToolResultImages, processImage } from "../tools/index.ts";

export interface SessionImageSettings {
	/** Fit images to the inline size limits (`images.autoResize`, default true). */
	autoResize: () => boolean;
	/** Send no images to the model (`images.blockImages`, default false). */
	block: () => boolean;
}

export const DEFAULT_IMAGE_SETTINGS: SessionImageSettings = { autoResize: () => true, block: () => false };

type AfterToolCall = (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;

/** An `afterToolCall` that processes the images of a result; undefined when nothing changed. */
export function normalizingAfterToolCall(settings: SessionImageSettings): AfterToolCall {
	return async ({ result }) => {
		const content = result.content as (TextContent | ImageContent)[];
		const normalized = await normalizeToolResultImages(content, { autoResizeImages: settings.autoResize() });
		return normalized === content ? undefined : { content: normalized };
	};
}

/** Runs `first` (extension hooks), then `then` (image processing) on what `first` left. */
export function chainAfterToolCall(first: AfterToolCall, then: AfterToolCall | undefined): AfterToolCall {
	if (!then) return first;
	return async (ctx, signal) => {
		const patch = await first(ctx, signal);
		const result = patch?.content ? { ...ctx.result, content: patch.content } : ctx.result;
		const more = await then({ ...ctx, result }, signal);
		return more ? { ...patch, ...more } : patch;
	};
}

/** Prompt images processed for the model, with the hints to append to the prompt text. */
export async function normalizePromptImages(
	images: ImageContent[] | undefined,
	settings: SessionImageSettings,
): Promise<{ images: ImageContent[]; hints: string[] }> {
	const out: ImageContent[] = [];
	const hints: string[] = [];
	for (const image of images ?? []) {
		const done = await processImage(Buffer.from(image.data, "base64"), image.mimeType, {
			autoResizeImages: settings.autoResize(),
		});
		if (!done.ok) {
			hints.push(done.message);
			continue;
		}
		out.push({ type: "image", data: done.data, mimeType: done.mimeType });
		hints.push(...done.hints);
	}
	return { images: out, hints };
}

const DISABLED = "Image reading is disabled.";

/** The messages with every image of user and tool-result messages replaced by the "disabled" text. */
export function withoutImages(messages: TranscriptMessage[]): TranscriptMessage[] {
	return messages.map((message) => {
		if (message.role !== "user" && message.role !== "toolResult") return message;
		const content = message.content;
		if (!Array.isArray(content) || !content.some((block) => block.type === "image")) return message;
		const replaced: (TextContent | ImageContent)[] = [];
		for (const block of content) {
			const next: TextContent | ImageContent = block.type === "image" ? { type: "text", text: DISABLED } : block;
			const previous = replaced.at(-1);
			const repeated = next.type === "text" && next.text === DISABLED;
			if (repeated && previous?.type === "text" && previous.text === DISABLED) continue;
			replaced.push(next);
		}
		return { ...message, content: replaced } as TranscriptMessage;
	});
}
