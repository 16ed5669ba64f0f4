import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildInputs, readFileArguments } from "../../../src/cli/inputs.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";
import { encodeBmp, testPixels } from "../../support/test-images.ts";

const PNG = Buffer.from(
	"89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f1a0000000049454e44ae426082",
	"hex",
);
const noFiles = { text: "", images: [] };

describe("readFileArguments", () => {
	const cwd = makeTempDir("pi-inputs-");
	const home = makeTempDir("pi-inputs-home-");
	const savedHome = process.env.HOME;
	beforeAll(() => {
		writeTree(cwd, { "a.txt": "alpha\n", "bom.txt": "\uFEFFwith bom", "empty.txt": "", "sub/b.md": "# b" });
		writeFileSync(join(cwd, "pic.png"), PNG);
		writeTree(home, { "h.txt": "from home" });
		mkdirSync(join(cwd, "dir"));
		process.env.HOME = home;
	});
	afterAll(() => {
		if (savedHome === undefined) delete process.env.HOME;
		else process.env.HOME = savedHome;
	});

	test("text files are inlined with their absolute path, in order; a BOM is dropped", async () => {
		const result = await readFileArguments(["a.txt", "sub/b.md", "bom.txt", "~/h.txt"], cwd);
		expect(result.text).toBe(
			`<file name="${join(cwd, "a.txt")}">\nalpha\n\n</file>\n` +
				`<file name="${join(cwd, "sub/b.md")}">\n# b\n</file>\n` +
				`<file name="${join(cwd, "bom.txt")}">\nwith bom\n</file>\n` +
				`<file name="${join(home, "h.txt")}">\nfrom home\n</file>\n`,
		);
		expect(result.images).toEqual([]);
	});

	test("an image is attached, and named by an empty file tag; empty files are skipped", async () => {
		const result = await readFileArguments(["pic.png", "empty.txt", join(cwd, "a.txt")], cwd);
		expect(result.images).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }]);
		expect(result.text).toBe(
			`<file name="${join(cwd, "pic.png")}"></file>\n<file name="${join(cwd, "a.txt")}">\nalpha\n\n</file>\n`,
		);
	});

	test("a BMP is converted to PNG, the note inside its file tag; an undecodable image is named with pi's note", async () => {
		writeFileSync(join(cwd, "shot.bmp"), encodeBmp(testPixels(3, 2), 3, 2));
		const result = await readFileArguments(["shot.bmp"], cwd);
		expect(result.images).toHaveLength(1);
		expect(result.images[0]?.mimeType).toBe("image/png");
		expect(result.text).toBe(
			`<file name="${join(cwd, "shot.bmp")}">[Image converted from image/bmp to image/png.]</file>\n`,
		);
		const bmp = Buffer.from(encodeBmp(testPixels(3, 2), 3, 2));
		writeFileSync(join(cwd, "bad.bmp"), Buffer.concat([bmp.subarray(0, 30), Buffer.alloc(4)]));
		const bad = await readFileArguments(["bad.bmp"], cwd);
		expect(bad).toEqual({
			images: [],
			text: `<file name="${join(cwd, "bad.bmp")}">[Image omitted: could not be converted to a supported inline image format.]</file>\n`,
		});
	});

	test("a missing file, a directory or a FIFO is a one-line user error", async () => {
		await expect(readFileArguments(["nope.txt"], cwd)).rejects.toThrow(
			`Error: File not found: ${join(cwd, "nope.txt")}`,
		);
		await expect(readFileArguments(["dir"], cwd)).rejects.toThrow(`Error: not a regular file: ${join(cwd, "dir")}`);
		if (Bun.spawnSync(["mkfifo", join(cwd, "pipe")]).exitCode === 0) {
			await expect(readFileArguments(["pipe"], cwd)).rejects.toThrow(`Error: not a regular file: ${join(cwd, "pipe")}`);
		}
	});
});

describe("buildInputs", () => {
	test("stdin, file text and the first message make the first prompt; other messages follow one by one", () => {
		const files = { text: '<file name="/x">\nx\n</file>\n', images: [] };
		expect(buildInputs("piped\n", files, ["first", "second", "third"])).toEqual([
			{ text: 'piped\n<file name="/x">\nx\n</file>\nfirst' },
			{ text: "second" },
			{ text: "third" },
		]);
	});

	test("stdin is trimmed, and blank stdin counts as none", () => {
		expect(buildInputs("\n  data  \n\n", noFiles, ["go"])).toEqual([{ text: "data\ngo" }]);
		expect(buildInputs(" \n", noFiles, ["go"])).toEqual([{ text: "go" }]);
		expect(buildInputs("only stdin\n", noFiles, [])).toEqual([{ text: "only stdin" }]);
	});

	test("images ride on the first prompt; nothing at all gives no prompt", () => {
		const image = { type: "image" as const, data: "AA==", mimeType: "image/png" };
		const files = { text: '<file name="/p.png"></file>\n', images: [image] };
		expect(buildInputs(undefined, files, ["look", "again"])).toEqual([
			{ text: '<file name="/p.png"></file>\nlook', images: [image] },
			{ text: "again" },
		]);
		expect(buildInputs(undefined, noFiles, [])).toEqual([]);
	});
});
