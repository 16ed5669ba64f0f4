/**
 * Terminal images, capability detection, hyperlinks and terminal colour replies give the same results as pi-tui
 * 0.87.1. One batch of cases runs through the same evaluator twice: under Node 22 against pi's install (one node
 * run) and here against ours, and the two result lists must be equal. The batch covers `detectCapabilities` under
 * many environments (a stub `tmux` on PATH answers the hyperlink probe), capability overrides, both encoders, the
 * dimension parsers on generated and hand-made image headers, cell layout, `imageFallback`, `hyperlink`,
 * `renderImage` and the `Image` component under each protocol, the Kitty re-placement and cropping helpers the
 * renderer uses, and the OSC 11 / colour scheme parsers. Skips, saying why, without pi's install.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import * as ours from "../../src/tui/index.ts";
import * as oursInternal from "../../src/tui/terminal-image.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { encodeGif, encodeImage, testPixels, withExifOrientation } from "../support/test-images.ts";
import { CASE_EVALUATOR, type ParityCase, UNDEFINED } from "../support/tui-images-cases.ts";

const b64 = (bytes: Uint8Array | number[]) =>
	Buffer.from(bytes instanceof Uint8Array ? bytes : bytes).toString("base64");

/** A RIFF/WEBP header with the given chunk kind and size fields (30 bytes, enough for every parser branch). */
function webpHeader(kind: "VP8 " | "VP8L" | "VP8X", width: number, height: number): number[] {
	const out = Buffer.alloc(30);
	out.write("RIFF", 0, "ascii");
	out.writeUInt32LE(22, 4);
	out.write("WEBP", 8, "ascii");
	out.write(kind, 12, "ascii");
	out.writeUInt32LE(10, 16);
	if (kind === "VP8 ") {
		out.set([0x9d, 0x01, 0x2a], 23);
		out.writeUInt16LE(width | 0x4000, 26);
		out.writeUInt16LE(height | 0x8000, 28);
	} else if (kind === "VP8L") {
		out[20] = 0x2f;
		out.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
	} else {
		out.writeUIntLE(width - 1, 24, 3);
		out.writeUIntLE(height - 1, 27, 3);
	}
	return [...out];
}

/** A JPEG of SOI, an APP0 segment, then a start-of-frame of type `sof`. */
function jpegHeader(sof: number, width: number, height: number): number[] {
	const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
	const frame = [0xff, sof, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1];
	return [0xff, 0xd8, ...app0, ...frame, 3, 0x11, 1, 0xff, 0xd9];
}

async function samples(): Promise<Record<string, string>> {
	const small = testPixels(7, 5);
	const big = testPixels(64, 48, 200);
	const png = await encodeImage(small, 7, 5, "png");
	const jpeg = await encodeImage(small, 7, 5, "jpeg");
	return {
		png: b64(png),
		bigPng: b64(await encodeImage(big, 64, 48, "png")),
		jpeg: b64(jpeg),
		jpegExif: b64(withExifOrientation(jpeg, 6)),
		webp: b64(await encodeImage(small, 7, 5, "webp")),
		gif: b64(encodeGif(small, 7, 5)),
		gif87: b64([...Buffer.from("GIF87a"), 0x2c, 0x01, 0x90, 0x00, 0, 0]),
		webpVp8: b64(webpHeader("VP8 ", 640, 480)),
		webpVp8l: b64(webpHeader("VP8L", 1000, 3)),
		webpVp8x: b64(webpHeader("VP8X", 70000, 20)),
		jpegSof1: b64(jpegHeader(0xc1, 300, 200)),
		jpegSof2: b64(jpegHeader(0xc2, 1920, 1080)),
		jpegSof3: b64(jpegHeader(0xc3, 10, 10)),
		jpegBadLength: b64([0xff, 0xd8, 0xff, 0xe0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
		truncatedPng: b64(png.subarray(0, 20)),
		truncatedJpeg: b64(jpeg.subarray(0, 4)),
		garbage: "not base64 at all!!",
		empty: "",
		pngWithWhitespace: `${b64(png).slice(0, 20)}\n${b64(png).slice(20)}`,
	};
}

const DETECT_ENVS: Record<string, string>[] = [
	{},
	{ TERM: "xterm-256color" },
	{ TERM: "xterm-256color", COLORTERM: "truecolor" },
	{ COLORTERM: "24bit" },
	{ KITTY_WINDOW_ID: "1" },
	{ TERM_PROGRAM: "kitty" },
	{ TERM_PROGRAM: "ghostty" },
	{ TERM: "xterm-ghostty" },
	{ GHOSTTY_RESOURCES_DIR: "/x" },
	{ WEZTERM_PANE: "0" },
	{ TERM_PROGRAM: "WezTerm" },
	{ TERM_PROGRAM: "WarpTerminal" },
	{ WARP_SESSION_ID: "1" },
	{ WARP_TERMINAL_SESSION_UUID: "u" },
	{ ITERM_SESSION_ID: "w0" },
	{ TERM_PROGRAM: "iTerm.app" },
	{ WT_SESSION: "s" },
	{ TERM_PROGRAM: "Alacritty" },
	{ TERM_PROGRAM: "vscode" },
	{ TERM_PROGRAM: "zed" },
	{ TERMINAL_EMULATOR: "JetBrains-JediTerm" },
	{ TMUX: "/tmp/tmux,1,0", TERM_PROGRAM: "kitty" },
	{ TMUX: "/tmp/tmux,1,0", COLORTERM: "truecolor" },
	{ TERM: "tmux-256color" },
	{ TERM: "screen-256color", COLORTERM: "truecolor", KITTY_WINDOW_ID: "1" },
	{ TERM: "screen", PI_HYPERLINKS: "1" },
	{ KITTY_WINDOW_ID: "1", PI_IMAGE_PROTOCOL: "none" },
	{ KITTY_WINDOW_ID: "1", PI_IMAGE_PROTOCOL: "0", PI_TRUE_COLOR: "0", PI_HYPERLINKS: "0" },
	{ PI_IMAGE_PROTOCOL: "ITERM2", PI_TRUE_COLOR: "1" },
	{ PI_IMAGE_PROTOCOL: "kitty", PI_TRUE_COLOR: "yes", PI_HYPERLINKS: "true" },
	{ PI_IMAGE_PROTOCOL: "sixel", TMUX: "x" },
	{ TMUX: "x", PI_HYPERLINKS: "0" },
];

/** Stub `tmux` commands answering the hyperlink probe. */
function tmuxStubs(): { forwards: string; strips: string; fails: string } {
	const make = (name: string, body: string) => {
		const dir = makeTempDir(`pi-tmux-${name}-`);
		writeFileSync(join(dir, "tmux"), `#!/bin/sh\n${body}\n`);
		chmodSync(join(dir, "tmux"), 0o755);
		return `${dir}:/usr/bin:/bin`;
	};
	return {
		forwards: make("on", "echo 'RGB, hyperlinks ,title'"),
		strips: make("off", "echo 'RGB,title,hyperlinksX'"),
		fails: make("err", "exit 1"),
	};
}

async function buildCases(): Promise<ParityCase[]> {
	const img = await samples();
	const stubs = tmuxStubs();
	const cases: ParityCase[] = [];
	for (const env of DETECT_ENVS) {
		for (const tmux of [true, false]) cases.push({ kind: "detect", env, tmux });
	}
	for (const PATH of [stubs.forwards, stubs.strips, stubs.fails]) {
		cases.push({ kind: "detect", env: { TMUX: "x", PATH }, tmux: "probe" });
		cases.push({ kind: "detect", env: { TERM: "tmux", PATH, PI_HYPERLINKS: "0" }, tmux: "probe" });
	}
	cases.push({
		kind: "caps",
		env: { KITTY_WINDOW_ID: "1" },
		steps: [{}, { images: null }, { images: null }, { hyperlinks: false, trueColor: false }, {}, { images: "iterm2" }],
	});
	cases.push({ kind: "caps", env: { TMUX: "x", PATH: stubs.fails }, steps: [{ hyperlinks: true }, {}] });

	const long = img.bigPng as string;
	const calls: [string, unknown[]][] = [
		["encodeKitty", [img.png]],
		["encodeKitty", [img.png, { columns: 10, rows: 3, imageId: 7, moveCursor: false }]],
		["encodeKitty", [img.png, { columns: 0, rows: 0, imageId: 0, moveCursor: true }]],
		["encodeKitty", [long, { columns: 40, rows: 12, imageId: 4294967295 }]],
		["encodeKitty", ["A".repeat(4096)]],
		["encodeKitty", ["A".repeat(4097), { moveCursor: false }]],
		["encodeKitty", ["B".repeat(8192)]],
		["encodeKitty", ["C".repeat(12289), { imageId: 3 }]],
		["encodeITerm2", [img.png]],
		["encodeITerm2", [img.jpeg, { width: 20, height: "auto", name: "pictüre.png", preserveAspectRatio: false }]],
		["encodeITerm2", [img.gif, { width: "50%", height: 10, inline: false, preserveAspectRatio: true, name: "" }]],
		["encodeITerm2", ["ab=="]],
		["encodeITerm2", ["a==="]],
		["encodeITerm2", ["abc=\n"]],
		["encodeITerm2", [""]],
		["deleteKittyImage", [42]],
		["deleteAllKittyImages", []],
		["hyperlink", ["click", "https://example.com/a?b=c"]],
		["hyperlink", ["", ""]],
		["hyperlink", ["\x1b[1mbold\x1b[22m", "file:///tmp/x y"]],
	];
	for (const name of Object.keys(img)) {
		for (const fn of ["getPngDimensions", "getJpegDimensions", "getGifDimensions", "getWebpDimensions"]) {
			calls.push([fn, [img[name]]]);
		}
		for (const mime of ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "IMAGE/PNG"]) {
			calls.push(["getImageDimensions", [img[name], mime]]);
		}
	}
	const sizes = [
		{ widthPx: 800, heightPx: 600 },
		{ widthPx: 1, heightPx: 1000 },
		{ widthPx: 3000, heightPx: 10 },
		{ widthPx: 0, heightPx: 0 },
		{ widthPx: 9, heightPx: 18 },
	];
	for (const size of sizes) {
		for (const width of [0, 1, 2.7, 10, 80, 200]) {
			calls.push(["calculateImageRows", [size, width]]);
			calls.push(["calculateImageRows", [size, width, { widthPx: 7, heightPx: 15 }]]);
			calls.push(["calculateImageRows", [size, width, { widthPx: 10, heightPx: 10 }]]);
		}
	}
	const replies = [
		"\x1b]11;rgb:0000/0000/0000\x07",
		"\x1b]11;rgb:ffff/ffff/ffff\x1b\\",
		"\x1b]11;rgb:1e1e/2020/3030\x07",
		"\x1b]11;rgb:f/8/0\x07",
		"\x1b]11;rgb:ff/80/00\x07",
		"\x1b]11;rgb:fff/800/000\x07",
		"\x1b]11;rgba:ffff/0000/0000/ffff\x07",
		"\x1b]11;RGB:12/34/56\x07",
		"\x1b]11;#1e1e2e\x07",
		"\x1b]11;#FFFFFF\x1b\\",
		"\x1b]11;#123456789abc\x07",
		"\x1b]11;#12345\x07",
		"\x1b]11; rgb:10/20/30 \x07",
		"\x1b]11;rgb:10/20\x07",
		"\x1b]11;rgb:10/2g/30\x07",
		"\x1b]11;rgb://\x07",
		"\x1b]11;rgb:10/20/30",
		"\x1b]10;rgb:10/20/30\x07",
		"x\x1b]11;rgb:10/20/30\x07",
		"",
	];
	for (const reply of replies) calls.push(["parseOsc11BackgroundColor", [reply]]);
	for (const report of [
		"\x1b[?997;1n",
		"\x1b[?997;2n",
		"\x1b[?997;1n\x1b[?997;2n",
		"\x1b[?997;2n\x1b[?997;1n",
		"\x1b[?997;3n",
		"\x1b[?997;1nx",
		"",
	]) {
		calls.push(["parseTerminalColorSchemeReport", [report]]);
	}
	for (const [fn, args] of calls) cases.push({ kind: "call", fn, args });

	const capsSets = [
		{ images: "kitty", trueColor: true, hyperlinks: true },
		{ images: "iterm2", trueColor: true, hyperlinks: false },
		{ images: null, trueColor: false, hyperlinks: true },
		{ images: null, trueColor: false, hyperlinks: false },
	] as const;
	const cells = [
		{ widthPx: 9, heightPx: 18 },
		{ widthPx: 8, heightPx: 17 },
	];
	const home = "/home/tester";
	for (const caps of capsSets) {
		for (const cell of cells) {
			for (const [data, dims, options] of [
				[img.png, { widthPx: 7, heightPx: 5 }, {}],
				[img.png, { widthPx: 7, heightPx: 5 }, { maxWidthCells: 3, imageId: 11, moveCursor: false }],
				[long, { widthPx: 64, heightPx: 48 }, { maxWidthCells: 30, maxHeightCells: 4, imageId: 12 }],
				[img.jpeg, { widthPx: 1000, heightPx: 100 }, { preserveAspectRatio: false, maxHeightCells: 2 }],
			] as const) {
				cases.push({ kind: "render", caps, cell, args: [data, dims, options] });
			}
		}
		for (const args of [
			["image/png"],
			["image/jpeg", { widthPx: 10, heightPx: 20 }],
			["image/gif", UNDEFINED, "relative/pic.gif"],
			["image/png", { widthPx: 1, heightPx: 2 }, `${home}/Pictures/a b#1%.png`],
			["image/png", UNDEFINED, home],
			["image/png", UNDEFINED, `${home}x/other.png`],
			["image/webp", UNDEFINED, "/srv/ünï code/[x].webp"],
			["image/png", UNDEFINED, ""],
		] as const) {
			cases.push({ kind: "fallback", caps, home, args: [...args] });
		}
		for (const [data, mime, options, dims] of [
			[img.png, "image/png", { imageId: 21 }, UNDEFINED],
			[img.png, "image/png", {}, UNDEFINED],
			[long, "image/png", { maxWidthCells: 20, imageId: 22, filename: `${home}/big.png` }, UNDEFINED],
			[img.jpeg, "image/jpeg", { maxHeightCells: 2, imageId: 23 }, { widthPx: 400, heightPx: 400 }],
			[img.garbage, "image/bmp", { imageId: 24, filename: "/tmp/some/long/path/to/a/picture.bmp" }, UNDEFINED],
			[img.webpVp8x, "image/webp", { imageId: 25, maxWidthCells: 200 }, UNDEFINED],
		] as const) {
			cases.push({
				kind: "image",
				caps,
				cell: cells[0] as { widthPx: number; heightPx: number },
				home,
				args: [data, mime, options, dims],
				widths: [1, 3, 12, 40, 80, 300],
			});
		}
	}
	const kittyLines = [
		ours.encodeKitty(img.png as string, { columns: 4, rows: 3, imageId: 31 }),
		`\x1b[2A${ours.encodeKitty(long, { columns: 30, rows: 6, imageId: 32, moveCursor: false })}tail`,
		ours.encodeKitty(img.png as string, { columns: 4, rows: 3 }),
		`x${ours.encodeITerm2(img.png as string)}`,
		"plain text",
		"\x1b_Gi=99;\x1b\\",
	];
	cases.push({
		kind: "kitty",
		register: [
			{ imageId: 31, columns: 4, rows: 3, widthPx: 7, heightPx: 5 },
			{ imageId: 32, columns: 30, rows: 6, widthPx: 64, heightPx: 48 },
		],
		lines: kittyLines,
		crops: [
			[0, 6],
			[1, 2],
			[2, 10],
			[5, 1],
			[6, 1],
			[-1, 2],
			[0, 0],
		],
	});
	return cases;
}

type ImageResult = { renders: { width: number; lines: (string | { screen: string[] })[] }[] };

/**
 * The text fallback of `Image` cut to a narrow width is compared as the screen shows it: its bytes there come from
 * `truncateToWidth` (the width helpers' part, with their own parity test), not from the image code.
 */
async function screensOfTruncatedFallbacks(cases: ParityCase[], results: unknown[]): Promise<unknown[]> {
	for (const [i, c] of cases.entries()) {
		if (c.kind !== "image") continue;
		for (const render of (results[i] as ImageResult).renders) {
			if (render.width >= 80) continue;
			for (const [j, line] of render.lines.entries()) {
				if (typeof line === "string" && !oursInternal.isImageLine(line)) {
					render.lines[j] = { screen: await linesOnScreen([line], render.width) };
				}
			}
		}
	}
	return results;
}

const NODE_SCRIPT = `import * as tui from "@earendil-works/pi-tui";
import { readFileSync } from "node:fs";
const internal = await import(process.env.PI_TUI_IMAGE_MODULE);
const { evaluator, cases } = JSON.parse(readFileSync(process.env.PI_PARITY_CASES, "utf8"));
const evaluate = new Function("tui", "internal", "cases", evaluator);
process.stdout.write(JSON.stringify(await evaluate(tui, internal, cases)));`;

describe("pi-tui images, capabilities and colours match pi-tui 0.87.1", () => {
	test("one batch, evaluated by pi-tui under Node and by ours", async () => {
		const pi = ensureRunnablePi();
		if ("error" in pi) {
			console.warn(`tui-images-parity: skipped, pi 0.87.1 unavailable: ${pi.error}`);
			return;
		}
		const cases = await buildCases();
		const file = join(makeTempDir("pi-tui-images-"), "cases.json");
		writeFileSync(file, JSON.stringify({ evaluator: CASE_EVALUATOR, cases }));
		const piTui = join(pi.modules, "@earendil-works", "pi-tui", "dist", "terminal-image.js");
		const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", NODE_SCRIPT], {
			cwd: dirname(pi.modules),
			env: { ...process.env, PI_PARITY_CASES: file, PI_TUI_IMAGE_MODULE: pathToFileURL(piTui).href },
			stdout: "pipe",
			stderr: "pipe",
		});
		if (child.exitCode !== 0) throw new Error(`pi-tui run failed: ${child.stderr.toString()}`);
		const theirs = await screensOfTruncatedFallbacks(cases, JSON.parse(child.stdout.toString()) as unknown[]);
		const evaluate = new Function("tui", "internal", "cases", CASE_EVALUATOR) as (
			...args: unknown[]
		) => Promise<unknown[]>;
		const mine = await screensOfTruncatedFallbacks(
			cases,
			await evaluate(ours, oursInternal, JSON.parse(JSON.stringify(cases))),
		);
		expect(mine.length).toBe(cases.length);
		const differing = mine
			.map((result, i) => ({ case: cases[i], ours: result, pi: theirs[i] }))
			.filter((row) => JSON.stringify(row.ours) !== JSON.stringify(row.pi));
		// PI_PARITY_DUMP=<file> writes every differing case, for looking into a failure.
		if (process.env.PI_PARITY_DUMP) writeFileSync(process.env.PI_PARITY_DUMP, JSON.stringify(differing, null, 1));
		expect(differing.slice(0, 5)).toEqual([]);
	}, 60_000);
});
