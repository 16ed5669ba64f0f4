/** Pure helpers of `pi-coding-agent`: ours against pi 0.87.1's on the same inputs. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const pi = piReference("helpers-vs-pi");
const maybe = pi ? test : test.skip;
const SLOW = 60_000;

const DIFF_CASES: [string, string][] = [
	["a\nb\nc\n", "a\nB\nc\n"],
	["", "x\ny\n"],
	["x\ny\n", ""],
	["a\nb", "a\nb\n"],
	["same\n", "same\n"],
	[
		Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n"),
		Array.from({ length: 30 }, (_, i) => (i === 3 || i === 25 ? `changed ${i}` : `line ${i}`)).join("\n"),
	],
	[
		Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n"),
		Array.from({ length: 20 }, (_, i) => (i === 5 || i === 12 ? `c${i}` : `l${i}`)).join("\n"),
	],
	["one\ntwo\nthree\nfour\n", "zero\none\nthree\nfour\nfive\n"],
];

describe("pure helpers match pi 0.87.1", () => {
	maybe(
		"generateDiffString and generateUnifiedPatch",
		() => {
			const theirs = pi?.run<unknown[]>(
				"return args.map(([a, b]) => [pi.generateDiffString(a, b), pi.generateDiffString(a, b, 1), pi.generateUnifiedPatch('f.txt', a, b), pi.generateUnifiedPatch('f.txt', a, b, 1)]);",
				DIFF_CASES,
			);
			const mine = DIFF_CASES.map(([a, b]) => [
				ours.generateDiffString(a, b),
				ours.generateDiffString(a, b, 1),
				ours.generateUnifiedPatch("f.txt", a, b),
				ours.generateUnifiedPatch("f.txt", a, b, 1),
			]);
			expect(JSON.parse(JSON.stringify(mine))).toEqual(theirs as never);
		},
		SLOW,
	);

	maybe(
		"detectSupportedImageMimeTypeFromFile and formatDimensionNote",
		async () => {
			const dir = mkdtempSync(join(tmpdir(), "pi-mime-"));
			try {
				const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
				const apng = Buffer.concat([
					png.subarray(0, 33),
					Buffer.from("000000086163544c0000000100000000aabbccdd", "hex"),
				]);
				const bmp = Buffer.alloc(40);
				bmp.write("BM", 0, "ascii");
				bmp.writeUInt32LE(40, 2);
				bmp.writeUInt32LE(26, 10);
				bmp.writeUInt32LE(12, 14);
				bmp.writeUInt16LE(1, 22);
				bmp.writeUInt16LE(24, 24);
				const files: Record<string, Buffer> = {
					"a.png": png,
					"b.apng": apng,
					"c.jpg": Buffer.from("ffd8ffe000104a464946", "hex"),
					"d.jls": Buffer.from("ffd8fff7", "hex"),
					"e.gif": Buffer.from("GIF89a\x01\x00", "latin1"),
					"f.webp": Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"),
					"g.bmp": bmp,
					"h.txt": Buffer.from("hello"),
					"i.empty": Buffer.alloc(0),
				};
				for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
				const names = Object.keys(files);
				const theirs = pi?.run<unknown[]>(
					"const out = []; for (const n of args.names) out.push(await pi.detectSupportedImageMimeTypeFromFile(args.dir + '/' + n)); return out;",
					{ dir, names },
				);
				const mine = [];
				for (const n of names) mine.push(await ours.detectSupportedImageMimeTypeFromFile(join(dir, n)));
				expect(mine).toEqual(theirs as never);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
			const images = [
				{
					data: "",
					mimeType: "image/png",
					originalWidth: 3000,
					originalHeight: 2000,
					width: 1500,
					height: 1000,
					wasResized: true,
				},
				{
					data: "",
					mimeType: "image/png",
					originalWidth: 10,
					originalHeight: 10,
					width: 10,
					height: 10,
					wasResized: false,
				},
				{
					data: "",
					mimeType: "image/png",
					originalWidth: 1000,
					originalHeight: 700,
					width: 300,
					height: 210,
					wasResized: true,
				},
			];
			const notes = pi?.run<unknown[]>("return args.map((r) => pi.formatDimensionNote(r) ?? null);", images);
			expect(images.map((r) => ours.formatDimensionNote(r) ?? null)).toEqual(notes as never);
		},
		SLOW,
	);

	maybe(
		"parseSkillBlock, createSyntheticSourceInfo, getShellConfig, truncateToVisualLines",
		() => {
			const blocks = [
				'<skill name="s" location="/x/SKILL.md">\nbody\nmore\n</skill>',
				'<skill name="s" location="/x/SKILL.md">\nbody\n</skill>\n\n  do it  ',
				"not a skill",
				'<skill name="s" location="/x">\nbody\n</skill>\n\n   ',
			];
			const sources = [
				["/p", { source: "sdk" }],
				["/q", { source: "ext", scope: "user", origin: "package", baseDir: "/b" }],
			] as const;
			const texts = [
				"",
				"short",
				"a much longer line that wraps around the narrow width several times over",
				"l1\nl2\nl3\nl4\nl5",
			];
			const theirs = pi?.run<unknown>(
				`return {
				blocks: args.blocks.map((b) => pi.parseSkillBlock(b)),
				sources: args.sources.map(([p, o]) => pi.createSyntheticSourceInfo(p, o)),
				shell: pi.getShellConfig(),
				custom: pi.getShellConfig("/bin/sh"),
				missing: (() => { try { pi.getShellConfig("/no/such/shell"); } catch (e) { return e.message; } })(),
				powershell: (() => { try { pi.getPowerShellConfig(); } catch (e) { return e.message; } })(),
				visual: args.texts.map((t) => [pi.truncateToVisualLines(t, 3, 20), pi.truncateToVisualLines(t, 2, 12, 1)]),
			};`,
				{ blocks, sources, texts },
			);
			const mine = {
				blocks: blocks.map((b) => ours.parseSkillBlock(b)),
				sources: sources.map(([p, o]) => ours.createSyntheticSourceInfo(p, o)),
				shell: ours.getShellConfig(),
				custom: ours.getShellConfig("/bin/sh"),
				missing: (() => {
					try {
						ours.getShellConfig("/no/such/shell");
					} catch (e) {
						return (e as Error).message;
					}
				})(),
				powershell: (() => {
					try {
						ours.getPowerShellConfig();
					} catch (e) {
						return (e as Error).message;
					}
				})(),
				visual: texts.map((t) => [ours.truncateToVisualLines(t, 3, 20), ours.truncateToVisualLines(t, 2, 12, 1)]),
			};
			expect(JSON.parse(JSON.stringify(mine))).toEqual(theirs as never);
		},
		SLOW,
	);

	test.if(process.platform === "linux")("copyToClipboard hands the text to xclip under X11", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-clip-"));
		const saved = { ...process.env };
		try {
			writeFileSync(join(dir, "xclip"), `#!/bin/sh\necho "$@" > "${dir}/args"\ncat > "${dir}/copied"\n`, {
				mode: 0o755,
			});
			for (const key of ["WAYLAND_DISPLAY", "TERMUX_VERSION", "SSH_CONNECTION", "SSH_CLIENT", "MOSH_CONNECTION"]) {
				delete process.env[key];
			}
			process.env.DISPLAY = ":99";
			process.env.PATH = `${dir}:/usr/bin:/bin`;
			await ours.copyToClipboard("héllo wörld");
			expect(readFileSync(join(dir, "copied"), "utf8")).toBe("héllo wörld");
			expect(readFileSync(join(dir, "args"), "utf8").trim()).toBe("-selection clipboard");
		} finally {
			process.env = saved;
			rmSync(dir, { recursive: true, force: true });
		}
	});

	test("copyToClipboard without any clipboard says so in one line", async () => {
		const saved = { ...process.env };
		for (const key of [
			"DISPLAY",
			"WAYLAND_DISPLAY",
			"TERMUX_VERSION",
			"SSH_CONNECTION",
			"SSH_CLIENT",
			"MOSH_CONNECTION",
		]) {
			delete process.env[key];
		}
		process.env.DISPLAY = ":99";
		process.env.PATH = "/nonexistent";
		try {
			if (process.platform === "linux") {
				await expect(ours.copyToClipboard("x")).rejects.toThrow(
					"Clipboard unavailable: install `xclip` or `xsel`, or check X11 access",
				);
			}
		} finally {
			process.env = saved;
		}
	});
});
