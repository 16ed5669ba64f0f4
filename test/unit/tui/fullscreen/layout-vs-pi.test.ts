/**
 * Stacks, scroll views and transcript search compared with pi-tui 0.87.1 under Node: the same scenario source runs
 * against both toolkits (one Node run for the whole batch) and the screens they produce must read the same.
 */
import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../../scripts/conformance-cache.ts";
import { findAltScreenSearchMatches } from "../../../../src/tui/alt-screen/search.ts";
import { Text } from "../../../../src/tui/basic.ts";
import { renderLayoutFrame } from "../../../../src/tui/layout/frame.ts";
import { ScrollView } from "../../../../src/tui/layout/scroll-view.ts";
import { HStack, VStack } from "../../../../src/tui/layout/stacks.ts";
import { linesOnScreen } from "../../../helpers/screen.ts";

/**
 * Each scenario is a function body over `T` (the toolkit) and `lines(list)` (a plain component); it returns a list
 * of outputs, each a list of rendered lines (or any JSON for search results).
 */
const SCENARIOS: Record<string, string> = {
	vstackFrames: `
		const root = new T.VStack([
			lines(["header"]),
			{ component: lines(["body 1", "body 2", "body 3"]), grow: 1 },
			lines(["footer a", "footer b"]),
		], { gap: 1 });
		return [[20, 10], [20, 6], [12, 4], [8, 2]].map(([w, h]) => T.frame(root, w, h));`,
	vstackShrinkLimits: `
		const root = new T.VStack([
			{ component: lines(["a1", "a2", "a3", "a4", "a5"]), minSize: 2 },
			{ component: lines(["b1", "b2", "b3", "b4", "b5", "b6"]), shrink: 2 },
			{ component: lines(["c1", "c2"]), shrink: 0 },
			{ component: lines(["d1"]), basis: 3, maxSize: 2 },
		]);
		return [7, 5, 12, 3].map((h) => T.frame(root, 10, h));`,
	vstackVisible: `
		const root = new T.VStack([
			lines(["always"]),
			{ component: lines(["wide only"]), visible: (v) => v.width >= 20 },
			{ component: lines(["rest"]), grow: 1 },
		]);
		return [T.frame(root, 30, 4), T.frame(root, 15, 4), root.render(25), root.render(10)];`,
	hstackFrames: `
		const left = lines(["L1", "L2", "L3"]);
		const mid = lines(["middle column text", "second"]);
		const right = lines(["R"]);
		const out = [];
		for (const align of ["stretch", "start", "center", "end"]) {
			const root = new T.HStack([
				{ component: left, basis: 4 },
				{ component: mid, grow: 1 },
				right,
			], { gap: 1, align });
			out.push(T.frame(root, 30, 4), T.frame(root, 12, 3), root.render(24));
		}
		return out;`,
	hstackShrink: `
		const a = lines(["aaaaaaaaaaaa"]);
		const b = lines(["bbbbbb", "bb"]);
		const c = lines(["cccccccccccccccccccc"]);
		const root = new T.HStack([a, { component: b, minSize: 4 }, { component: c, maxSize: 8, shrink: 3 }], { gap: 2 });
		return [root.render(40), root.render(20), root.render(9), T.frame(root, 20, 2), T.frame(root, 5, 2)];`,
	nested: `
		const side = new T.VStack([lines(["menu", "item"]), { component: lines(["~"]), grow: 1 }]);
		const main = new T.VStack([{ component: new T.Text("a long paragraph that wraps across several rows of the main column", 0, 0), grow: 1 }, lines(["status"])]);
		const root = new T.HStack([{ component: side, basis: 6 }, { component: main, grow: 1 }], { gap: 1 });
		return [T.frame(root, 30, 6), T.frame(root, 20, 8)];`,
	scrollFollow: `
		const content = lines(Array.from({ length: 30 }, (_, i) => "line " + (i + 1)));
		const view = new T.ScrollView(content, { follow: "end", primary: true, scrollbar: "always" });
		const root = new T.VStack([lines(["top"]), { component: view, grow: 1 }, lines(["bottom"])]);
		const out = [T.frame(root, 20, 8)];
		view.scrollBy(-5); out.push(T.frame(root, 20, 8), [String(view.scrollTop), String(view.isFollowingEnd)]);
		view.scrollToStart(); out.push(T.frame(root, 20, 8));
		view.scrollTo(100); out.push(T.frame(root, 20, 8), [String(view.scrollTop), String(view.isFollowingEnd)]);
		view.scrollTo(100, { disableFollow: true }); out.push([String(view.scrollTop), String(view.isFollowingEnd)]);
		out.push([String(view.scrollBy(-40)), String(view.scrollTop)]);
		return out;`,
	scrollNoFollow: `
		const content = lines(Array.from({ length: 12 }, (_, i) => "row " + i));
		const view = new T.ScrollView(content, { scrollbar: "hidden" });
		const out = [T.frame(view, 10, 5)];
		view.scrollBy(3); out.push(T.frame(view, 10, 5));
		out.push(T.frame(view, 10, 20));
		view.scrollToEnd(); out.push(T.frame(view, 10, 4), [String(view.scrollTop), String(view.isFollowingEnd)]);
		return out;`,
	search: `
		const text = ["Hello \\x1b[1mworld\\x1b[0m, hello", "there world-wide", "  spaced   out  words", "你好 world"];
		return [
			T.search(text, "hello"),
			T.search(text, "world"),
			T.search(text, "hello there"),
			T.search(text, "spaced out"),
			T.search(text, "  WORLD  "),
			T.search(text, ""),
		];`,
};

const PRELUDE = `
	const lines = (list) => ({ render: (w) => list.map((s) => s.slice(0, w)), invalidate() {} });
`;

function ours(): Record<string, unknown> {
	const T = {
		VStack,
		HStack,
		ScrollView,
		Text,
		frame: (root: unknown, w: number, h: number) => renderLayoutFrame(root as never, w, h, () => {}).lines,
		search: findAltScreenSearchMatches,
	};
	const out: Record<string, unknown> = {};
	for (const [name, body] of Object.entries(SCENARIOS)) {
		out[name] = new Function("T", `${PRELUDE}${body}`)(T);
	}
	return out;
}

function theirs(): Record<string, unknown> | undefined {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`layout-vs-pi: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return undefined;
	}
	const script = `
		const tui = await import("@earendil-works/pi-tui");
		const layout = await import("@earendil-works/pi-tui/dist/layout.js");
		const search = await import("@earendil-works/pi-tui/dist/alt-screen-search.js");
		const T = { ...tui, frame: (root, w, h) => layout.renderLayoutFrame(root, w, h, () => {}).lines,
			search: search.findAltScreenSearchMatches };
		const scenarios = JSON.parse(process.env.SCENARIOS);
		const out = {};
		for (const [name, body] of Object.entries(scenarios)) out[name] = new Function("T", ${JSON.stringify(PRELUDE)} + body)(T);
		process.stdout.write(JSON.stringify(out));`;
	const child = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		env: { ...process.env, SCENARIOS: JSON.stringify(SCENARIOS) },
		stdout: "pipe",
		stderr: "pipe",
	});
	if (child.exitCode !== 0) throw new Error(`pi-tui reference failed: ${child.stderr.toString()}`);
	return JSON.parse(child.stdout.toString()) as Record<string, unknown>;
}

/** Rendered line lists become what a terminal shows; other values are compared as they are. */
async function visible(value: unknown): Promise<unknown> {
	if (!Array.isArray(value)) return value;
	const out: unknown[] = [];
	for (const item of value) {
		if (Array.isArray(item) && item.every((x) => typeof x === "string")) {
			out.push(await linesOnScreen(item as string[], 60));
		} else out.push(item);
	}
	return out;
}

const reference = theirs();

describe.skipIf(reference === undefined)("fullscreen layout matches pi-tui 0.87.1", () => {
	const mine = ours();
	for (const name of Object.keys(SCENARIOS)) {
		test(name, async () => {
			const expected = await visible(reference?.[name]);
			const actual = await visible(mine[name]);
			expect(actual).toEqual(expected);
		});
	}
});
