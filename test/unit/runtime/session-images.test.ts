/** How images entering a session are processed: tool results (after the extension hook), prompts, blockImages. */
import { describe, expect, test } from "bun:test";
import type { AfterToolCallContext } from "../../../src/agent/index.ts";
import type { ImageContent, TranscriptMessage } from "../../../src/ai/index.ts";
import {
	chainAfterToolCall,
	normalizePromptImages,
	normalizingAfterToolCall,
	type SessionImageSettings,
	withoutImages,
} from "../../../src/runtime/session-images.ts";
import { encodeBmp, encodeImage, testPixels } from "../../support/test-images.ts";

const on: SessionImageSettings = { autoResize: () => true, block: () => false };
const off: SessionImageSettings = { autoResize: () => false, block: () => false };

const image = (bytes: Uint8Array, mimeType: string): ImageContent => ({
	type: "image",
	data: Buffer.from(bytes).toString("base64"),
	mimeType,
});

function context(content: AfterToolCallContext["result"]["content"]): AfterToolCallContext {
	return { result: { content, details: undefined }, isError: false } as unknown as AfterToolCallContext;
}

describe("tool-result images", () => {
	test("an oversized image from a tool is resized, the note as a text block after it", async () => {
		const big = image(await encodeImage(testPixels(2100, 100), 2100, 100, "png"), "image/png");
		const patch = await normalizingAfterToolCall(on)(context([{ type: "text", text: "shot" }, big]));
		expect(patch?.content?.map((b) => b.type)).toEqual(["text", "image", "text"]);
		expect(patch?.content?.[2]).toEqual({
			type: "text",
			text: "[Image: original 2100x100, displayed at 2000x95. Multiply coordinates by 1.05 to map to original image.]",
		});
	});

	test("images inside the limits, text-only results and undecodable images are left alone", async () => {
		const small = image(await encodeImage(testPixels(10, 10), 10, 10, "png"), "image/png");
		const broken: ImageContent = { type: "image", data: Buffer.from("nope").toString("base64"), mimeType: "image/png" };
		const normalize = normalizingAfterToolCall(on);
		expect(await normalize(context([small]))).toBeUndefined();
		expect(await normalize(context([{ type: "text", text: "x" }]))).toBeUndefined();
		expect(await normalize(context([broken]))).toBeUndefined();
	});

	test("a BMP is converted even with auto-resize off", async () => {
		const bmp = image(encodeBmp(testPixels(4, 4), 4, 4), "image/bmp");
		const patch = await normalizingAfterToolCall(off)(context([bmp]));
		expect(patch?.content?.[0]).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(patch?.content?.[1]).toEqual({ type: "text", text: "[Image converted from image/bmp to image/png.]" });
	});

	test("the chain processes what the extension hook returned, keeping its other fields", async () => {
		const bmp = image(encodeBmp(testPixels(4, 4), 4, 4), "image/bmp");
		const hook = async () => ({ content: [bmp], isError: true });
		const patch = await chainAfterToolCall(hook, normalizingAfterToolCall(on))(context([{ type: "text", text: "a" }]));
		expect(patch?.isError).toBe(true);
		expect(patch?.content?.map((b) => (b.type === "image" ? b.mimeType : b.text))).toEqual([
			"image/png",
			"[Image converted from image/bmp to image/png.]",
		]);
	});
});

describe("prompt images", () => {
	test("processed with their hints; one that cannot be converted becomes a hint only", async () => {
		const bmp = image(encodeBmp(testPixels(4, 4), 4, 4), "image/bmp");
		const broken: ImageContent = {
			type: "image",
			data: Buffer.from("nope").toString("base64"),
			mimeType: "image/tiff",
		};
		const done = await normalizePromptImages([bmp, broken], on);
		expect(done.images.map((i) => i.mimeType)).toEqual(["image/png"]);
		expect(done.hints).toEqual([
			"[Image converted from image/bmp to image/png.]",
			"[Image omitted: could not be converted to a supported inline image format.]",
		]);
		expect(await normalizePromptImages(undefined, on)).toEqual({ images: [], hints: [] });
	});
});

describe("blockImages", () => {
	test("images of user and tool-result messages become one disabled note per run", () => {
		const img: ImageContent = { type: "image", data: "AAAA", mimeType: "image/png" };
		const messages = [
			{ role: "user", content: [{ type: "text", text: "look" }, img, img], timestamp: 1 },
			{ role: "user", content: "plain", timestamp: 2 },
			{
				role: "toolResult",
				toolCallId: "t",
				toolName: "read",
				content: [img, { type: "text", text: "between" }, img],
				isError: false,
				timestamp: 3,
			},
		] as TranscriptMessage[];
		const out = withoutImages(messages) as { content: unknown }[];
		expect(out[0]?.content).toEqual([
			{ type: "text", text: "look" },
			{ type: "text", text: "Image reading is disabled." },
		]);
		expect(out[1]).toBe(messages[1] as never);
		expect(out[2]?.content).toEqual([
			{ type: "text", text: "Image reading is disabled." },
			{ type: "text", text: "between" },
			{ type: "text", text: "Image reading is disabled." },
		]);
	});
});
