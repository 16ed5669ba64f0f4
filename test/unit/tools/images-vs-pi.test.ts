/**
 * `resizeImage` and `convertToPng` against pi 0.87.1's own on the same generated images: the same type, sizes,
 * `wasResized`, and byte-identical base64 (both run Photon's WASM, so any difference is a difference in what we
 * ask of it: target sizes, candidate order, quality steps, EXIF handling).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";
import { encodeBmp, encodeGif, encodeImage, testPixels, withExifOrientation } from "../../support/test-images.ts";

const pi = piReference("images-vs-pi");
const maybe = pi ? test : test.skip;
const SLOW = 240_000;
const dir = mkdtempSync(join(tmpdir(), "pi-images-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ResizeCase {
	name: string;
	file: string;
	mimeType: string;
	options?: Record<string, number>;
}

/** The result with its data replaced by a digest (and kept short in a failure message). */
function summary(result: { data: string } | null): unknown {
	if (!result) return null;
	const digest = new Bun.CryptoHasher("sha256").update(result.data).digest("hex");
	return { ...result, data: `${result.data.length}:${digest}` };
}

const SUMMARY_JS = `const { createHash } = await import("node:crypto");
const { readFileSync } = await import("node:fs");
const summary = (r) => r ? { ...r, data: r.data.length + ":" + createHash("sha256").update(r.data).digest("hex") } : null;`;

async function write(name: string, bytes: Uint8Array): Promise<string> {
	const file = join(dir, name);
	writeFileSync(file, bytes);
	return file;
}

describe("image processing matches pi 0.87.1", () => {
	maybe(
		"resizeImage: fitting, format choice, quality steps, shrinking and EXIF orientation",
		async () => {
			const photo = testPixels(640, 480, 60);
			const cases: ResizeCase[] = [
				{
					name: "PNG over 2000 px",
					file: await write("wide.png", await encodeImage(testPixels(2300, 900), 2300, 900, "png")),
					mimeType: "image/png",
				},
				{
					name: "JPEG over 2000 px tall",
					file: await write("tall.jpg", await encodeImage(testPixels(700, 2200), 700, 2200, "jpeg")),
					mimeType: "image/jpeg",
				},
				{
					name: "inside every limit: unchanged",
					file: await write("small.png", await encodeImage(testPixels(300, 200), 300, 200, "png")),
					mimeType: "image/png",
				},
				{
					name: "PNG too heavy: a JPEG quality step",
					file: await write("noisy.png", await encodeImage(photo, 640, 480, "png")),
					mimeType: "image/png",
					options: { maxBytes: 250_000 },
				},
				{
					name: "nothing fits at full size: smaller sizes",
					file: await write("noisy2.png", await encodeImage(photo, 640, 480, "png")),
					mimeType: "image/png",
					options: { maxBytes: 9_000, jpegQuality: 60 },
				},
				{
					name: "custom box",
					file: await write("box.webp", await encodeImage(testPixels(400, 300), 400, 300, "webp")),
					mimeType: "image/webp",
					options: { maxWidth: 150, maxHeight: 150 },
				},
				{
					name: "undecodable bytes: null",
					file: await write("broken.png", new TextEncoder().encode("not an image at all")),
					mimeType: "image/png",
				},
			];
			const jpeg = await encodeImage(testPixels(90, 40), 90, 40, "jpeg");
			for (const orientation of [2, 3, 4, 5, 6, 7, 8]) {
				cases.push({
					name: `EXIF orientation ${orientation}`,
					file: await write(`exif${orientation}.jpg`, withExifOrientation(jpeg, orientation)),
					mimeType: "image/jpeg",
					options: { maxWidth: 60, maxHeight: 60 },
				});
			}
			cases.push({
				name: "EXIF orientation 6 inside the limits: sizes upright, data unchanged",
				file: join(dir, "exif6.jpg"),
				mimeType: "image/jpeg",
			});

			const theirs = pi?.run<unknown[]>(
				`${SUMMARY_JS}
const out = [];
for (const c of args) out.push(summary(await pi.resizeImage(new Uint8Array(readFileSync(c.file)), c.mimeType, c.options)));
return out;`,
				cases,
			);
			const mine: unknown[] = [];
			for (const c of cases) {
				const bytes = new Uint8Array(await Bun.file(c.file).arrayBuffer());
				mine.push(summary(await ours.resizeImage(bytes, c.mimeType, c.options)));
			}
			const named = (list: unknown[] | undefined) => Object.fromEntries(cases.map((c, i) => [c.name, list?.[i]]));
			expect(named(mine)).toEqual(named(theirs));
			// The cases reach the paths they are named for.
			const results = mine as ({ mimeType: string; width: number; height: number; wasResized: boolean } | null)[];
			expect(results[0]).toMatchObject({ width: 2000, height: 783, wasResized: true, mimeType: "image/png" });
			expect(results[2]).toMatchObject({ wasResized: false });
			expect(results[3]).toMatchObject({ mimeType: "image/jpeg", width: 640, height: 480 });
			expect(results[4]).toMatchObject({ wasResized: true });
			expect((results[4]?.width ?? 640) < 640).toBe(true);
			expect(results[6]).toBeNull();
			expect(results.at(-1)).toMatchObject({ width: 40, height: 90, wasResized: false });
		},
		SLOW,
	);

	maybe(
		"convertToPng: GIF, WebP, BMP, JPEG with EXIF, PNG passthrough, garbage",
		async () => {
			const pixels = testPixels(48, 32);
			const cases: [string, string][] = [
				[await write("c.gif", encodeGif(pixels, 48, 32)), "image/gif"],
				[await write("c.webp", await encodeImage(pixels, 48, 32, "webp")), "image/webp"],
				[await write("c.bmp", encodeBmp(pixels, 48, 32)), "image/bmp"],
				[await write("c8.jpg", withExifOrientation(await encodeImage(pixels, 48, 32, "jpeg"), 8)), "image/jpeg"],
				[await write("c.png", await encodeImage(pixels, 48, 32, "png")), "image/png"],
				[await write("c.bin", new TextEncoder().encode("GIF89a but not really")), "image/gif"],
			];
			const theirs = pi?.run<unknown[]>(
				`${SUMMARY_JS}
const out = [];
for (const [file, mimeType] of args) out.push(summary(await pi.convertToPng(readFileSync(file).toString("base64"), mimeType)));
return out;`,
				cases,
			);
			const mine: unknown[] = [];
			for (const [file, mimeType] of cases) {
				const base64 = Buffer.from(await Bun.file(file).arrayBuffer()).toString("base64");
				mine.push(summary(await ours.convertToPng(base64, mimeType)));
			}
			expect(mine).toEqual(theirs as unknown[]);
			expect(mine.slice(0, 5).every((r) => (r as { mimeType: string }).mimeType === "image/png")).toBe(true);
			expect(mine[5]).toBeNull();
		},
		SLOW,
	);
});
