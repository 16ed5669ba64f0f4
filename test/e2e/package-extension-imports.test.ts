/**
 * A package shaped like the community's pi-mermaid loads in the compiled binary and sees pi 0.87.1's modules:
 * it imports `getMarkdownTheme`, `keyHint`, `keyText`, `rawKeyHint` from `@mariozechner/pi-coding-agent` and
 * `Box`, `Spacer`, `Text`, `truncateToWidth`, `visibleWidth` from `@mariozechner/pi-tui`, a dependency from its
 * own node_modules (statically and with a dynamic `import()`), and carries an outdated copy of pi-coding-agent in
 * node_modules (npm installs peer dependencies) that must not shadow the host's. Its command prints what those
 * helpers return; the same package run by pi 0.87.1 (conformance cache, Node 22) prints the same bytes.
 */
import { describe, expect, test } from "bun:test";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { runPi } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

const EXTENSION = `import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { getMarkdownTheme, keyHint, keyText, rawKeyHint } from "@mariozechner/pi-coding-agent";
import { Box, type Component, Spacer, Text, truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { renderAscii } from "ascii-box";

function diagram(source: string): Component {
	const box = new Box(1, 0);
	box.addChild(new Text(renderAscii(source).join("\\n"), 0, 0));
	box.addChild(new Spacer(1));
	return box;
}

export default function (pi: ExtensionAPI) {
	pi.registerMessageRenderer("diagram", (message) => diagram(String(message.content)));
	pi.registerCommand("diagram", {
		description: "Render a diagram",
		handler: async (args) => {
			const lazy = await import("ascii-box");
			const md = getMarkdownTheme();
			console.log("DIAGRAM " + JSON.stringify({
				hint: keyHint("app.tools.expand", "to expand"),
				legacyHint: keyHint("expandTools", "to expand"),
				rawHint: rawKeyHint("ctrl+o", "to expand"),
				keys: keyText("app.tools.expand"),
				border: md.codeBlockBorder("\`\`\`mermaid"),
				highlight: typeof md.highlightCode,
				lines: diagram(args || "A --> B").render(16),
				lazy: lazy.renderAscii("x")[1],
				clipped: truncateToWidth("abcdefgh", 5),
				width: visibleWidth("abc"),
			}));
		},
	});
}
`;

/** The package, as `npm install` leaves it: its dependency and a stale peer copy in node_modules. */
function writePackage(dir: string): void {
	writeTree(dir, {
		"package.json": JSON.stringify({
			name: "diagram-fixture",
			version: "1.0.0",
			type: "module",
			dependencies: { "ascii-box": "1.0.0" },
			peerDependencies: { "@mariozechner/pi-coding-agent": "*", "@mariozechner/pi-tui": "*" },
			pi: { extensions: ["./index.ts"] },
		}),
		"index.ts": EXTENSION,
		"node_modules/ascii-box/package.json": JSON.stringify({
			name: "ascii-box",
			version: "1.0.0",
			type: "module",
			main: "index.js",
		}),
		"node_modules/ascii-box/index.js": `export function renderAscii(text) {
	const bar = "+" + "-".repeat(text.length + 2) + "+";
	return [bar, "| " + text + " |", bar];
}
`,
		"node_modules/@mariozechner/pi-coding-agent/package.json": JSON.stringify({
			name: "@mariozechner/pi-coding-agent",
			version: "0.1.0",
			type: "module",
			main: "index.js",
		}),
		"node_modules/@mariozechner/pi-coding-agent/index.js": `export const VERSION = "0.1.0";\n`,
	});
}

/** The JSON the command printed (pi prints a command's console output on stderr in print mode, ours on stdout). */
function printed(output: string): unknown {
	const line = output.split("\n").find((l) => l.startsWith("DIAGRAM "));
	if (line === undefined) throw new Error(`the command printed nothing:\n${output}`);
	return JSON.parse(line.slice("DIAGRAM ".length));
}

/** The colour environment both runs get, so the escapes are the same on any terminal or CI. */
const COLOUR_ENV = { PI_TRUE_COLOR: "0", COLORTERM: "", COLORFGBG: "", NO_COLOR: "", FORCE_COLOR: "0", TERM: "dumb" };

const EXPECTED = {
	hint: "\u001b[38;5;241m\u001b[39m\u001b[38;5;244m to expand\u001b[39m",
	legacyHint: "\u001b[38;5;241m\u001b[39m\u001b[38;5;244m to expand\u001b[39m",
	rawHint: "\u001b[38;5;241mctrl+o\u001b[39m\u001b[38;5;244m to expand\u001b[39m",
	keys: "",
	border: "\u001b[38;5;244m```mermaid\u001b[39m",
	highlight: "function",
	lines: [" +---------+    ", " | A --> B |    ", " +---------+    ", "                "],
	lazy: "| x |",
	clipped: "ab\u001b[0m...\u001b[0m",
	width: 3,
};

describe("a pi-mermaid-like package", () => {
	test("loads with -e <dir> and from the extensions folder; the host's modules win over its node_modules", () => {
		const home = makeTempDir("pi-pkg-imports-");
		writePackage(`${home}/work/pkg`);
		const run = runPi(["-e", "./pkg", "-p", "/diagram"], { home, cwd: `${home}/work`, env: COLOUR_ENV });
		expect(run.stderr).toBe("");
		expect(run.exitCode).toBe(0);
		expect(printed(run.stdout)).toEqual(EXPECTED);

		const installed = makeTempDir("pi-pkg-imports-");
		writePackage(`${installed}/.pi/agent/extensions/diagram`);
		const auto = runPi(["-p", "/diagram"], { home: installed, env: COLOUR_ENV });
		expect(auto.stderr).toBe("");
		expect(printed(auto.stdout)).toEqual(EXPECTED);
	}, 60_000);

	const pi = ensureRunnablePi();
	if ("error" in pi) console.log(`pi-mermaid-like package side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
	test.skipIf("error" in pi)(
		"pi 0.87.1 prints the same",
		() => {
			if ("error" in pi) return;
			const home = makeTempDir("pi-pkg-imports-pi-");
			writePackage(`${home}/work/pkg`);
			const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: home, ...COLOUR_ENV };
			Object.assign(env, {
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			});
			const run = Bun.spawnSync([pi.node, pi.cli, "-e", "./pkg", "-p", "/diagram"], {
				cwd: `${home}/work`,
				env,
				stdout: "pipe",
				stderr: "pipe",
			});
			expect(run.exitCode).toBe(0);
			expect(printed(run.stdout.toString() + run.stderr.toString())).toEqual(EXPECTED);
		},
		60_000,
	);
});
