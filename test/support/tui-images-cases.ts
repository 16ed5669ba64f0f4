/**
 * The evaluator of the pi-tui images parity test (test/e2e/tui-images-parity.test.ts): plain JavaScript source run
 * unchanged both under Node against pi-tui and in the test against ours, so the two result lists come from the same
 * steps. It receives `tui` (the package), `internal` (its terminal-image module, for the renderer's Kitty helpers)
 * and `cases`, and returns one JSON-able result per case. Arguments equal to `UNDEFINED` stand for `undefined`
 * (JSON cannot carry it).
 */
export const UNDEFINED = "<undefined>";

type Caps = { images: "kitty" | "iterm2" | null; trueColor: boolean; hyperlinks: boolean };
type Cell = { widthPx: number; heightPx: number };

export type ParityCase =
	| { kind: "detect"; env: Record<string, string>; tmux: boolean | "probe" }
	| { kind: "caps"; env: Record<string, string>; steps: Partial<Caps>[] }
	| { kind: "call"; fn: string; args: unknown[] }
	| { kind: "render"; caps: Caps; cell: Cell; args: unknown[] }
	| { kind: "fallback"; caps: Caps; home: string; args: unknown[] }
	| { kind: "image"; caps: Caps; cell: Cell; home: string; args: unknown[]; widths: number[] }
	| {
			kind: "kitty";
			register: { imageId: number; columns: number; rows: number; widthPx: number; heightPx: number }[];
			lines: string[];
			crops: [number, number][];
	  };

export const CASE_EVALUATOR = `
const ENV_KEYS = ["TERM_PROGRAM", "TERMINAL_EMULATOR", "TERM", "COLORTERM", "TMUX", "KITTY_WINDOW_ID",
	"GHOSTTY_RESOURCES_DIR", "WEZTERM_PANE", "WARP_SESSION_ID", "WARP_TERMINAL_SESSION_UUID", "ITERM_SESSION_ID",
	"WT_SESSION", "PI_IMAGE_PROTOCOL", "PI_TRUE_COLOR", "PI_HYPERLINKS", "HOME", "PATH"];
const saved = {};
for (const key of ENV_KEYS) saved[key] = process.env[key];
const setEnv = (key, value) => {
	if (value === undefined) delete process.env[key];
	else process.env[key] = value;
};
const useEnv = (env) => {
	for (const key of ENV_KEYS) setEnv(key, key === "PATH" || key === "HOME" ? saved[key] : undefined);
	for (const [key, value] of Object.entries(env)) setEnv(key, value);
};
const arg = (value) => (value === ${JSON.stringify(UNDEFINED)} ? undefined : value);
const theme = { fallbackColor: (text) => "\\x1b[33m" + text + "\\x1b[39m" };
const one = (c) => {
	switch (c.kind) {
		case "detect":
			useEnv(c.env);
			return tui.detectCapabilities(c.tmux === "probe" ? undefined : () => c.tmux);
		case "caps": {
			useEnv(c.env);
			tui.resetCapabilitiesCache();
			const seen = c.steps.map((step) => {
				tui.setCapabilityOverrides(step);
				return { ...tui.getCapabilities() };
			});
			tui.setCapabilityOverrides({});
			tui.resetCapabilitiesCache();
			return seen;
		}
		case "call":
			return tui[c.fn](...c.args.map(arg));
		case "render":
			tui.setCapabilities(c.caps);
			tui.setCellDimensions(c.cell);
			return tui.renderImage(...c.args.map(arg));
		case "fallback":
			useEnv({ HOME: c.home });
			tui.setCapabilities(c.caps);
			return tui.imageFallback(...c.args.map(arg));
		case "image": {
			useEnv({ HOME: c.home });
			tui.setCapabilities(c.caps);
			tui.setCellDimensions(c.cell);
			const [data, mime, options, dims] = c.args.map(arg);
			const image = new tui.Image(data, mime, theme, options, dims);
			const before = image.getImageId();
			const renders = c.widths.map((width) => {
				const lines = image.render(width);
				return { width, lines, cached: image.render(width) === lines };
			});
			image.invalidate();
			const again = JSON.stringify(image.render(80)) === JSON.stringify(renders.find((r) => r.width === 80)?.lines);
			let id = image.getImageId();
			let text = JSON.stringify(renders);
			let allocated;
			if (options.imageId === undefined && id !== undefined) {
				allocated = Number.isInteger(id) && id >= 1 && id <= 0xffffffff;
				text = text.split("i=" + id).join("i=<allocated>");
				id = "<allocated>";
			}
			return { before, after: id, allocated, renders: JSON.parse(text), again };
		}
		case "kitty": {
			for (const metadata of c.register) internal.registerKittyImageMetadata(metadata);
			return c.lines.map((line) => {
				const placement = internal.getKittyImagePlacement(line);
				if (placement) delete placement.transmissionGeneration;
				return {
					image: internal.isImageLine(line),
					metadata: internal.getKittyImageMetadata(line),
					placement,
					crops: c.crops.map(([hidden, visible]) => internal.cropKittyImageLine(line, hidden, visible)),
				};
			});
		}
	}
	throw new Error("unknown case " + c.kind);
};
const results = [];
for (const c of cases) {
	try {
		results.push(one(c) ?? null);
	} catch (error) {
		results.push({ threw: true });
	}
}
useEnv({});
tui.setCapabilityOverrides({});
tui.resetCapabilitiesCache();
tui.setCellDimensions({ widthPx: 9, heightPx: 18 });
return results;
`;
