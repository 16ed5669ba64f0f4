import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReadTool, localReadOperations, type ReadOperations } from "../../../src/tools/read.ts";
import { encodeBmp, encodeGif, encodeImage, testPixels } from "../../support/test-images.ts";

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-read-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

type Result = Awaited<ReturnType<ReturnType<typeof createReadTool>["execute"]>>;
const textOf = (result: Result) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

function file(name: string, content: string | Buffer): string {
	const path = join(dir, name);
	writeFileSync(path, content);
	return path;
}

async function read(params: { path: string; offset?: number; limit?: number }, options = {}): Promise<Result> {
	return createReadTool(dir, options).execute("id", params);
}

const lines = (count: number, make = (i: number) => `line ${i}`) =>
	Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");

describe("read tool: text", () => {
	test("metadata", () => {
		const tool = createReadTool(dir);
		expect(tool.name).toBe("read");
		expect(tool.promptSnippet).toBe("Read file contents");
		expect(tool.promptGuidelines?.length).toBe(1);
		expect(Object.keys(tool.parameters.properties)).toEqual(["path", "offset", "limit"]);
		expect(tool.description).toContain("2000 lines");
	});

	test("returns a small file as is", async () => {
		file("small.txt", "hello\nworld\n");
		const result = await read({ path: "small.txt" });
		expect(textOf(result)).toBe("hello\nworld\n");
		expect(result.details).toBeUndefined();
	});

	test("offset and limit, with the more-lines hint", async () => {
		file("ten.txt", lines(10));
		expect(textOf(await read({ path: "ten.txt", offset: 3, limit: 2 }))).toBe(
			"line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]",
		);
		expect(textOf(await read({ path: "ten.txt", offset: 9 }))).toBe("line 9\nline 10");
		expect(textOf(await read({ path: "ten.txt", offset: 9, limit: 5 }))).toBe("line 9\nline 10");
	});

	test("a trailing newline counts as a final empty line (pi's convention)", async () => {
		file("trail.txt", "a\nb\n");
		expect(textOf(await read({ path: "trail.txt", limit: 1 }))).toBe(
			"a\n\n[2 more lines in file. Use offset=2 to continue.]",
		);
		expect(textOf(await read({ path: "trail.txt", offset: 3 }))).toBe("");
		await expect(read({ path: "trail.txt", offset: 4 })).rejects.toThrow(
			"Offset 4 is beyond end of file (3 lines total)",
		);
	});

	test("empty file", async () => {
		file("empty.txt", "");
		expect(textOf(await read({ path: "empty.txt" }))).toBe("");
		await expect(read({ path: "empty.txt", offset: 2 })).rejects.toThrow(
			"Offset 2 is beyond end of file (1 lines total)",
		);
	});

	test("truncates to 2000 lines with a continuation hint", async () => {
		file("many.txt", lines(2500));
		const result = await read({ path: "many.txt" });
		const text = textOf(result);
		expect(text.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
		expect(result.details?.truncation?.truncatedBy).toBe("lines");
		expect(result.details?.truncation?.totalLines).toBe(2500);
		expect(textOf(await read({ path: "many.txt", offset: 2001 }))).toEndWith("line 2500");
	});

	test("a file of exactly 2000 lines plus a trailing newline is not truncated", async () => {
		file("exact.txt", `${lines(2000)}\n`);
		expect(textOf(await read({ path: "exact.txt" }))).toEndWith("line 2000\n");
	});

	test("truncates to 50KB with the byte-limit hint", async () => {
		file(
			"wide.txt",
			lines(200, (i) => `${i}:${"x".repeat(1000)}`),
		);
		const result = await read({ path: "wide.txt", offset: 11 });
		const text = textOf(result);
		expect(text).toStartWith("11:");
		expect(text).toContain("\n\n[Showing lines 11-");
		expect(text).toMatch(/\[Showing lines 11-(\d+) of 200 \(50\.0KB limit\)\. Use offset=\d+ to continue\.\]$/);
		expect(result.details?.truncation?.truncatedBy).toBe("bytes");
	});

	test("a first line over 50KB gets the sed hint", async () => {
		file("long-line.txt", `short\n${"y".repeat(60 * 1024)}\nafter`);
		const text = textOf(await read({ path: "long-line.txt", offset: 2 }));
		expect(text).toBe("[Line 2 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '2p' long-line.txt | head -c 51200]");
	});

	test("a UTF-8 BOM is not shown; Latin-1 text is shown decoded byte by byte", async () => {
		file("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("first\n")]));
		expect(textOf(await read({ path: "bom.txt" }))).toBe("first\n");
		file("latin1.txt", Buffer.from("café crème\n", "latin1"));
		expect(textOf(await read({ path: "latin1.txt" }))).toBe("café crème\n");
	});
});

describe("read tool: bad inputs", () => {
	test("missing file: clear ENOENT message", async () => {
		await expect(read({ path: "nope.txt" })).rejects.toThrow("File not found: nope.txt (ENOENT)");
	});

	test("falls back to path variants (curly apostrophe, macOS screenshot names)", async () => {
		file("it\u2019s.txt", "curly");
		expect(textOf(await read({ path: "it's.txt" }))).toBe("curly");
		file("Screenshot 10.00.00\u202FAM.png.txt", "shot");
		expect(textOf(await read({ path: "Screenshot 10.00.00 AM.png.txt" }))).toBe("shot");
	});

	test("directory", async () => {
		mkdirSync(join(dir, "sub"), { recursive: true });
		await expect(read({ path: "sub" })).rejects.toThrow("Is a directory: sub");
	});

	test("/dev/zero is refused quickly", async () => {
		const started = performance.now();
		await expect(read({ path: "/dev/zero" })).rejects.toThrow("Not a regular file: /dev/zero");
		expect(performance.now() - started).toBeLessThan(1000);
	});

	test("a FIFO is refused without blocking", async () => {
		const fifo = join(dir, "pipe");
		expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
		const started = performance.now();
		await expect(read({ path: "pipe" })).rejects.toThrow(`Not a regular file: pipe`);
		expect(performance.now() - started).toBeLessThan(1000);
	});

	test("a symlink loop", async () => {
		symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
		symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));
		await expect(read({ path: "loop-a" })).rejects.toThrow(/Symbolic link loop.*loop-a.*ELOOP/);
	});

	test("binary content gets a short note instead of garbage", async () => {
		const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x10]);
		file("prog.bin", bytes);
		const result = await read({ path: "prog.bin" });
		expect(textOf(result)).toStartWith("Binary file, 12 bytes: prog.bin");
		expect(result.content).toHaveLength(1);
	});

	test("abort rejects with Operation aborted", async () => {
		file("abort.txt", "x");
		const controller = new AbortController();
		controller.abort();
		await expect(createReadTool(dir).execute("id", { path: "abort.txt" }, controller.signal)).rejects.toThrow(
			"Operation aborted",
		);
		const slow: ReadOperations = {
			...localReadOperations,
			readRange: async (p, start, length) => {
				await Bun.sleep(200);
				return localReadOperations.readRange!(p, start, length);
			},
		};
		const live = new AbortController();
		const pending = createReadTool(dir, { operations: slow }).execute("id", { path: "abort.txt" }, live.signal);
		setTimeout(() => live.abort(), 20);
		const started = performance.now();
		await expect(pending).rejects.toThrow("Operation aborted");
		expect(performance.now() - started).toBeLessThan(150);
	});
});

describe("read tool: images", () => {
	let png: Buffer;
	beforeAll(async () => {
		png = Buffer.from(await encodeImage(testPixels(4, 3), 4, 3, "png"));
	});

	test("a PNG is detected by content, whatever its name, and sent as it is when inside the limits", async () => {
		file("picture.dat", png);
		const result = await read({ path: "picture.dat" });
		expect(result.content[0]).toEqual({ type: "text", text: "Read image file [image/png]" });
		expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: png.toString("base64") });
	});

	test("jpeg, gif and webp signatures; a .png name with text content is text", async () => {
		const pixels = testPixels(8, 6);
		const cases: [string, Uint8Array][] = [
			["image/jpeg", await encodeImage(pixels, 8, 6, "jpeg")],
			["image/gif", encodeGif(pixels, 8, 6)],
			["image/webp", await encodeImage(pixels, 8, 6, "webp")],
		];
		for (const [mime, bytes] of cases) {
			file("img", Buffer.from(bytes));
			expect((await read({ path: "img" })).content[1]).toMatchObject({ type: "image", mimeType: mime });
		}
		file("fake.png", "just text");
		expect(textOf(await read({ path: "fake.png" }))).toBe("just text");
	});

	test("a BMP is converted to PNG, with pi's note", async () => {
		file("shot.bmp", Buffer.from(encodeBmp(testPixels(5, 4), 5, 4)));
		const result = await read({ path: "shot.bmp" });
		expect(result.content[0]).toEqual({
			type: "text",
			text: "Read image file [image/png]\n[Image converted from image/bmp to image/png.]",
		});
		expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
	});

	test("a picture over the box is resized, with the dimension note; autoResizeImages false sends it as it is", async () => {
		const wide = Buffer.from(await encodeImage(testPixels(300, 100), 300, 100, "png"));
		file("wide.png", wide);
		const resized = await read({ path: "wide.png" }, { resizeOptions: { maxWidth: 150 } });
		expect(textOf(resized)).toBe(
			"Read image file [image/png]\n[Image: original 300x100, displayed at 150x50. Multiply coordinates by 2.00 to map to original image.]",
		);
		const raw = await read({ path: "wide.png" }, { resizeOptions: { maxWidth: 150 }, autoResizeImages: false });
		expect(raw.content[1]).toEqual({ type: "image", mimeType: "image/png", data: wide.toString("base64") });
	});

	test("an image that cannot be decoded is omitted with pi's note", async () => {
		file("broken.png", Buffer.concat([png.subarray(0, 33), Buffer.alloc(64, 7)]));
		const result = await read({ path: "broken.png" });
		expect(result.content).toEqual([
			{
				type: "text",
				text: "Read image file [image/png]\n[Image omitted: could not be resized below the inline image size limit.]",
			},
		]);
	});

	test("an image over the size limit is described, not attached", async () => {
		file("big.png", Buffer.concat([png, Buffer.alloc(2048)]));
		const result = await read({ path: "big.png" }, { maxImageBytes: 1024 });
		expect(result.content).toHaveLength(1);
		expect(textOf(result)).toContain("Image not attached");
	});
});

describe("read tool: bounded reading", () => {
	let big: string;
	beforeAll(async () => {
		big = join(dir, "big.txt");
		const block = Buffer.from(lines(16384, (i) => `row ${String(i).padStart(8, "0")} ${"z".repeat(50)}`) + "\n");
		const stream = createWriteStream(big);
		let written = 0;
		while (written < 50 * 1024 * 1024) {
			if (!stream.write(block)) await new Promise((resolve) => stream.once("drain", resolve));
			written += block.length;
		}
		await new Promise((resolve) => stream.end(resolve));
	});

	test("a 50MB file read with limit=5 returns 5 lines quickly", async () => {
		const started = performance.now();
		const text = textOf(await read({ path: "big.txt", limit: 5 }));
		const elapsed = performance.now() - started;
		expect(text.split("\n\n")[0]?.split("\n")).toHaveLength(5);
		expect(text).toEndWith("[More lines in file. Use offset=6 to continue.]");
		expect(elapsed).toBeLessThan(500);
	});

	test("only the needed bytes are read, even deep into the file", async () => {
		let bytesRead = 0;
		const counting: ReadOperations = {
			...localReadOperations,
			readFile: async () => {
				throw new Error("whole-file read");
			},
			readRange: async (p, start, length) => {
				const chunk = await localReadOperations.readRange!(p, start, length);
				bytesRead += chunk.length;
				return chunk;
			},
		};
		const head = textOf(await read({ path: "big.txt", limit: 5 }, { operations: counting }));
		expect(head).toStartWith("row 00000001");
		expect(bytesRead).toBeLessThan(200 * 1024);
		bytesRead = 0;
		const deep = textOf(await read({ path: "big.txt", offset: 100_000, limit: 2 }, { operations: counting }));
		expect(deep).toStartWith(`row ${String(((100_000 - 1) % 16384) + 1).padStart(8, "0")}`);
		expect(bytesRead).toBeLessThan(8 * 1024 * 1024);
	});

	test("a huge single line is measured without keeping it", async () => {
		file("huge-line.txt", `${"q".repeat(3 * 1024 * 1024)}\nend`);
		const text = textOf(await read({ path: "huge-line.txt" }));
		expect(text).toBe("[Line 1 is 3.0MB, exceeds 50.0KB limit. Use bash: sed -n '1p' huge-line.txt | head -c 51200]");
		expect(textOf(await read({ path: "huge-line.txt", offset: 2 }))).toBe("end");
	});

	test("past the count budget the total is left out of the hints", async () => {
		file("budget.txt", lines(2500));
		const truncated = textOf(await read({ path: "budget.txt" }, { countBudget: 0 }));
		expect(truncated).toMatch(/\[Showing lines 1-2000 of a \d+\.\dKB file\. Use offset=2001 to continue\.\]$/);
		file("budget-line.txt", `${"w".repeat(300 * 1024)}\nrest`);
		expect(textOf(await read({ path: "budget-line.txt" }, { countBudget: 0 }))).toStartWith(
			"[Line 1 is over 50.0KB, exceeds 50.0KB limit.",
		);
	});

	test("operations without ranged reads (pi's shape) still work", async () => {
		file("plain.txt", lines(5));
		const piShaped: ReadOperations = {
			readFile: localReadOperations.readFile,
			access: localReadOperations.access,
		};
		expect(textOf(await read({ path: "plain.txt", offset: 2, limit: 2 }, { operations: piShaped }))).toBe(
			"line 2\nline 3\n\n[2 more lines in file. Use offset=4 to continue.]",
		);
		await expect(read({ path: "missing.txt" }, { operations: piShaped })).rejects.toThrow("File not found");
	});
});
