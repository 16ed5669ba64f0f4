/**
 * Terminal images without pi's install (the parity test compares everything with pi-tui byte for byte): what the
 * `Image` component puts on screen per protocol, capability detection rules, the Kitty chunking, and the colour
 * reply parsers.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
	detectCapabilities,
	encodeKitty,
	getCapabilities,
	getImageDimensions,
	Image,
	imageFallback,
	parseOsc11BackgroundColor,
	parseTerminalColorSchemeReport,
	resetCapabilitiesCache,
	setCapabilities,
	setCapabilityOverrides,
	setCellDimensions,
} from "../../../src/tui/index.ts";
import { linesOnScreen } from "../../helpers/screen.ts";

/** A PNG header saying 90×36 pixels (enough for the size parser). */
const PNG = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
	Buffer.from("IHDR"),
	Buffer.from([0, 0, 0, 90, 0, 0, 0, 36, 8, 6, 0, 0, 0]),
]).toString("base64");
const theme = { fallbackColor: (text: string) => `\x1b[33m${text}\x1b[39m` };

const ENV_KEYS = ["TERM", "TERM_PROGRAM", "COLORTERM", "TMUX", "KITTY_WINDOW_ID", "PI_IMAGE_PROTOCOL", "PI_HYPERLINKS"];
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
function useEnv(env: Record<string, string>): void {
	for (const key of ENV_KEYS) delete process.env[key];
	Object.assign(process.env, env);
}

beforeEach(() => setCellDimensions({ widthPx: 9, heightPx: 18 }));
afterEach(() => {
	for (const [key, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[key];
		else process.env[key] = value;
	}
	setCapabilityOverrides({});
	resetCapabilitiesCache();
});

describe("Image", () => {
	test("without an image protocol shows one line of text describing the image", async () => {
		setCapabilities({ images: null, trueColor: true, hyperlinks: false });
		const image = new Image(PNG, "image/png", theme, { filename: "shot.png" });
		expect(await linesOnScreen(image.render(60), 60)).toEqual(["[Image: shot.png [image/png] 90x36]"]);
		expect((await linesOnScreen(image.render(12), 12))[0]).toBe("[Image: s...");
		expect(image.getImageId()).toBeUndefined();
	});
	test("Kitty: the image on the first of its rows, an id allocated once and kept", () => {
		setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
		const image = new Image(PNG, "image/png", theme, { maxWidthCells: 10 });
		const lines = image.render(80);
		// 90×36 px scaled to 10 columns of 9 px: 36 px high = 2 rows of 18 px.
		expect(lines.length).toBe(2);
		expect(lines[0]).toContain("c=10,r=2");
		expect(lines[0]).toContain("C=1");
		const id = image.getImageId();
		expect(id).toBeGreaterThan(0);
		expect(lines[0]).toContain(`i=${id}`);
		expect(lines[1]).toBe("");
		image.invalidate();
		expect(image.render(40)[0]).toContain(`i=${id}`);
	});
	test("iTerm2: blank rows, then the image drawn from the first row by moving up", () => {
		setCapabilities({ images: "iterm2", trueColor: true, hyperlinks: true });
		const lines = new Image(PNG, "image/png", theme, { maxWidthCells: 20 }).render(80);
		expect(lines.length).toBe(4);
		expect(lines.slice(0, 3)).toEqual(["", "", ""]);
		expect(lines[3]?.startsWith("\x1b[3A\x1b]1337;File=inline=1;")).toBe(true);
		expect(lines[3]).toContain("width=20;height=auto:");
	});
	test("unknown data is drawn as 800×600", () => {
		setCapabilities({ images: null, trueColor: false, hyperlinks: false });
		expect(getImageDimensions("AAAA", "image/png")).toBeNull();
		expect(new Image("AAAA", "image/png", theme).render(80)[0]).toContain("800x600");
	});
	test("the fallback links an absolute file name where the terminal has links", () => {
		setCapabilities({ images: null, trueColor: true, hyperlinks: true });
		expect(imageFallback("image/png", undefined, "/tmp/a b.png")).toBe(
			"[Image: \x1b]8;;file:///tmp/a%20b.png\x1b\\/tmp/a b.png\x1b]8;;\x1b\\ [image/png]]",
		);
	});
});

describe("capabilities", () => {
	test("terminals, multiplexers and the PI_* overrides", () => {
		useEnv({ KITTY_WINDOW_ID: "3" });
		expect(detectCapabilities()).toEqual({ images: "kitty", trueColor: true, hyperlinks: true });
		useEnv({ TERM_PROGRAM: "iTerm.app" });
		expect(detectCapabilities().images).toBe("iterm2");
		useEnv({ TMUX: "x", TERM_PROGRAM: "kitty", COLORTERM: "truecolor" });
		expect(detectCapabilities(() => true)).toEqual({ images: null, trueColor: true, hyperlinks: true });
		useEnv({ TERM: "xterm", PI_IMAGE_PROTOCOL: "Kitty", PI_HYPERLINKS: "1" });
		expect(detectCapabilities()).toEqual({ images: "kitty", trueColor: false, hyperlinks: true });
	});
	test("getCapabilities caches until reset, and overrides apply on top", () => {
		useEnv({ KITTY_WINDOW_ID: "1" });
		resetCapabilitiesCache();
		expect(getCapabilities().images).toBe("kitty");
		useEnv({});
		expect(getCapabilities().images).toBe("kitty");
		setCapabilityOverrides({ images: null, hyperlinks: false });
		expect(getCapabilities()).toEqual({ images: null, trueColor: false, hyperlinks: false });
	});
});

test("Kitty payloads over 4096 characters go in continued chunks", () => {
	const sequence = encodeKitty("x".repeat(9000), { imageId: 5 });
	expect(sequence.split("\x1b\\").filter(Boolean)).toEqual([
		`\x1b_Ga=T,f=100,q=2,i=5,m=1;${"x".repeat(4096)}`,
		`\x1b_Gm=1;${"x".repeat(4096)}`,
		`\x1b_Gm=0;${"x".repeat(808)}`,
	]);
});

test("terminal colour replies", () => {
	expect(parseOsc11BackgroundColor("\x1b]11;rgb:ffff/8080/0000\x07")).toEqual({ r: 255, g: 128, b: 0 });
	expect(parseOsc11BackgroundColor("\x1b]11;#1e1e2e\x1b\\")).toEqual({ r: 30, g: 30, b: 46 });
	expect(parseOsc11BackgroundColor("\x1b]11;rgb:1/2\x07")).toBeUndefined();
	expect(parseTerminalColorSchemeReport("\x1b[?997;2n")).toBe("light");
	expect(parseTerminalColorSchemeReport("\x1b[?997;1n")).toBe("dark");
	expect(parseTerminalColorSchemeReport("\x1b[?997;5n")).toBeUndefined();
});
