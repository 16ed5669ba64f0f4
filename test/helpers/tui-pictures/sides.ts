/**
 * The two sides of the picture comparison. `piPictures` runs node-main.ts under Node 22 against pi 0.87.1's install
 * (one process for every scenario × width); `ourPictures` draws the same scenarios in this Bun process with our
 * extension loader (the virtual-module table of src/sdk), our dark theme and our pi-tui.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunnablePi } from "../../../scripts/conformance-cache.ts";
import { drawPictures, type Pictures } from "./driver.ts";
import type { PictureHost } from "./recorder.ts";
import { SCENARIOS } from "./scenarios.ts";

export const WIDTHS = [40, 80, 120] as const;

/** Presets for preset.ts's selector, in the project folder both sides use as cwd. */
const PRESETS = {
	plan: {
		provider: "anthropic",
		model: "claude-opus-4-5",
		thinkingLevel: "high",
		tools: ["read", "grep", "find", "ls"],
		instructions: "Plan only; do not edit files.",
	},
	quick: { thinkingLevel: "off", tools: ["read", "bash", "edit", "write"] },
	review: { provider: "openai", model: "gpt-5", thinkingLevel: "medium" },
};

export interface PictureWorld {
	root: string;
	cwd: string;
	agentDir: string;
	/** Environment both sides draw in (colour mode, time zone, agent dir). */
	env: Record<string, string>;
	dispose(): void;
}

export function createWorld(): PictureWorld {
	const root = mkdtempSync(join(tmpdir(), "pi-pictures-"));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(cwd, ".pi", "presets.json"), JSON.stringify(PRESETS, null, 2));
	return {
		root,
		cwd,
		agentDir,
		env: { PI_CODING_AGENT_DIR: agentDir, COLORTERM: "truecolor", TZ: "UTC" },
		dispose: () => rmSync(root, { recursive: true, force: true }),
	};
}

export function piPictures(pi: RunnablePi, world: PictureWorld, examplesDir: string): Pictures {
	const out = join(world.root, "pi-pictures.json");
	const input = { modules: pi.modules, examplesDir, cwd: world.cwd, widths: WIDTHS, out };
	const child = Bun.spawnSync([pi.node, join(import.meta.dir, "node-main.ts")], {
		cwd: dirname(pi.modules),
		env: {
			...process.env,
			...world.env,
			PI_PICTURES: JSON.stringify(input),
			HTTP_PROXY: "http://127.0.0.1:9",
			HTTPS_PROXY: "http://127.0.0.1:9",
			NO_PROXY: "127.0.0.1,localhost",
		},
		stdout: "pipe",
		stderr: "pipe",
		timeout: 300_000,
	});
	if (child.exitCode !== 0) throw new Error(`pi pictures failed (exit ${child.exitCode}): ${child.stderr.toString()}`);
	return JSON.parse(readFileSync(out, "utf8")) as Pictures;
}

export async function ourPictures(world: PictureWorld, examplesDir: string): Promise<Pictures> {
	const saved = Object.fromEntries(Object.keys(world.env).map((key) => [key, process.env[key]]));
	Object.assign(process.env, world.env);
	try {
		return await drawOurs(world, examplesDir);
	} finally {
		for (const [key, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	}
}

async function drawOurs(world: PictureWorld, examplesDir: string): Promise<Pictures> {
	const [{ loadVirtualModules }, { createModuleLoader }, sdk, resources, tui] = await Promise.all([
		import("../../../src/sdk/virtual-modules.ts"),
		import("../../../src/extensions/index.ts"),
		import("../../../src/sdk/pi-coding-agent.ts"),
		import("../../../src/resources/index.ts"),
		import("../../../src/tui/index.ts"),
	]);
	const loader = await createModuleLoader(await loadVirtualModules(), join(world.root, "jiti"), "bun");
	sdk.initTheme("dark");
	const host: PictureHost = {
		async loadFactory(path) {
			loader.reset();
			return (await loader.load(path)).default as (pi: unknown) => unknown;
		},
		theme: resources.currentTheme(),
		keybindings: tui.getKeybindings(),
		editorTheme: () => sdk.getEditorTheme(),
	};
	return drawPictures(host, SCENARIOS, examplesDir, world.cwd, WIDTHS);
}
