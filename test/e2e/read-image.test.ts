/**
 * The compiled binary's read tool on images, against the mock LLM: a picture larger than 2000 px reaches the model
 * resized, with pi's dimension note; a BMP arrives converted to PNG with the conversion note; `images.autoResize:
 * false` sends the big picture as it is. Photon's WASM is embedded in the binary, so this also proves that it loads
 * there with no file beside the binary.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { encodeBmp, encodeImage, testPixels } from "../support/test-images.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const SLOW = 120_000;

interface ToolResultBlock {
	type: string;
	content: { type: string; text?: string; source?: { media_type: string; data: string } }[];
}

function workspace(file: string, bytes: Uint8Array, settings?: object): { home: string; cwd: string } {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	if (settings) writeFileSync(join(home, ".pi", "agent", "settings.json"), JSON.stringify(settings));
	const cwd = makeTempDir("pi-img-");
	writeFileSync(join(cwd, file), bytes);
	return { home, cwd };
}

/** Runs `pi -p` where the model reads `file` once, and returns the tool result the second request carried. */
async function readThroughBinary(file: string, bytes: Uint8Array, settings?: object): Promise<ToolResultBlock> {
	const { home, cwd } = workspace(file, bytes, settings);
	const before = server.requests.length;
	server.push(
		{ kind: "reply", toolCalls: [{ id: "t1", name: "read", arguments: { path: file } }] },
		{ kind: "reply", text: "Seen." },
	);
	const run = await runPiAsync(["-p", "look at the picture"], { home, cwd });
	expect(run.stderr).toBe("");
	expect(run.stdout).toBe("Seen.\n");
	const requests = server.requests.slice(before);
	expect(requests).toHaveLength(2);
	const result = requests[1]?.body.messages.at(-1).content[0] as ToolResultBlock;
	expect(result.type).toBe("tool_result");
	return result;
}

async function imageSize(base64: string): Promise<[number, number]> {
	const { loadPhoton } = await import("../../src/tools/image-photon.ts");
	const photon = await loadPhoton();
	if (!photon) throw new Error("photon did not load");
	const image = photon.PhotonImage.new_from_byteslice(Buffer.from(base64, "base64"));
	try {
		return [image.get_width(), image.get_height()];
	} finally {
		image.free();
	}
}

describe("the read tool's images in the binary", () => {
	test(
		"a 2400x1200 PNG reaches the model at 2000x1000 with the dimension note",
		async () => {
			const png = await encodeImage(testPixels(2400, 1200), 2400, 1200, "png");
			const result = await readThroughBinary("big.png", png);
			const [note, image] = result.content;
			expect(note?.text).toBe(
				"Read image file [image/png]\n[Image: original 2400x1200, displayed at 2000x1000. Multiply coordinates by 1.20 to map to original image.]",
			);
			expect(image?.type).toBe("image");
			expect(image?.source?.media_type).toBe("image/png");
			expect(await imageSize(image?.source?.data ?? "")).toEqual([2000, 1000]);
		},
		SLOW,
	);

	test(
		"a BMP is converted to PNG with the conversion note",
		async () => {
			const bmp = encodeBmp(testPixels(30, 20), 30, 20);
			const result = await readThroughBinary("shot.bmp", bmp);
			const [note, image] = result.content;
			expect(note?.text).toBe("Read image file [image/png]\n[Image converted from image/bmp to image/png.]");
			expect(image?.source?.media_type).toBe("image/png");
			expect(await imageSize(image?.source?.data ?? "")).toEqual([30, 20]);
		},
		SLOW,
	);

	test(
		"images.autoResize false: the big PNG is sent unchanged",
		async () => {
			const png = await encodeImage(testPixels(2100, 300), 2100, 300, "png");
			const result = await readThroughBinary("wide.png", png, { images: { autoResize: false } });
			const [note, image] = result.content;
			expect(note?.text).toBe("Read image file [image/png]");
			expect(image?.source?.data).toBe(Buffer.from(png).toString("base64"));
		},
		SLOW,
	);

	test(
		'images.blockImages: the request carries "Image reading is disabled." instead of the image',
		async () => {
			const png = await encodeImage(testPixels(20, 10), 20, 10, "png");
			const result = await readThroughBinary("small.png", png, { images: { blockImages: true } });
			// With no image left, the tool result is one string, as pi-ai sends it.
			expect(result.content as unknown).toBe("Read image file [image/png]\nImage reading is disabled.");
		},
		SLOW,
	);

	test(
		"@file: a big PNG is resized when the prompt is sent, the note appended to the prompt text",
		async () => {
			const png = await encodeImage(testPixels(2200, 500), 2200, 500, "png");
			const { home, cwd } = workspace("shot.png", png);
			const before = server.requests.length;
			server.push({ kind: "reply", text: "Nice." });
			const run = await runPiAsync(["-p", "@shot.png", "what is this?"], { home, cwd });
			expect(run.stderr).toBe("");
			expect(run.stdout).toBe("Nice.\n");
			const user = server.requests[before]?.body.messages.at(-1);
			expect(user.content[0]).toEqual({
				type: "text",
				text: `<file name="${join(cwd, "shot.png")}"></file>\nwhat is this?\n\n[Image: original 2200x500, displayed at 2000x455. Multiply coordinates by 1.10 to map to original image.]`,
			});
			expect(user.content[1].source.media_type).toBe("image/png");
			expect(await imageSize(user.content[1].source.data)).toEqual([2000, 455]);
		},
		SLOW,
	);

	test(
		"a model without image input: the read result carries pi's note that the image is omitted",
		async () => {
			const png = await encodeImage(testPixels(20, 10), 20, 10, "png");
			const { home, cwd } = workspace("small.png", png);
			const mock = {
				baseUrl: server.url,
				api: "anthropic-messages",
				apiKey: "k",
				models: [{ id: "blind", input: ["text"] }],
			};
			writeFileSync(join(home, ".pi", "agent", "models.json"), JSON.stringify({ providers: { mock } }));
			const before = server.requests.length;
			server.push(
				{ kind: "reply", toolCalls: [{ id: "t1", name: "read", arguments: { path: "small.png" } }] },
				{ kind: "reply", text: "Cannot see." },
			);
			const run = await runPiAsync(["-p", "look"], { home, cwd });
			expect(run.stdout).toBe("Cannot see.\n");
			const result = server.requests[before + 1]?.body.messages.at(-1).content[0] as ToolResultBlock;
			expect(result.content as unknown).toBe(
				// The image itself becomes pi-ai's placeholder for a model without image input.
				"Read image file [image/png]\n[Current model does not support images. The image will be omitted from this request.]\n(tool image omitted: model does not support images)",
			);
		},
		SLOW,
	);
});
