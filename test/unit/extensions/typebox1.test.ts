/**
 * `typebox` is TypeBox 1.x for extensions, as in pi 0.87.1, and it loads only when an extension imports it.
 * pi's own example extensions that import `typebox` register the same tool parameter schemas in ours as in pi
 * 0.87.1 (pi loaded under Node 22 from the conformance cache; skipped, saying why, without it), and their tools'
 * arguments are validated against those TypeBox 1.x schemas.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ensurePackage, ensureRunnablePi, PINNED } from "../../../scripts/conformance-cache.ts";
import { validateToolArguments } from "../../../src/agent/index.ts";
import { createEventBus, createModuleLoader, loadExtensions } from "../../../src/extensions/index.ts";
import { loadVirtualModules } from "../../../src/sdk/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const root = join(import.meta.dir, "..", "..", "..");

describe("TypeBox 1.x for extensions", () => {
	test("loads only when an extension imports `typebox`", () => {
		const dir = makeTempDir("pi-tb1-");
		writeTree(dir, {
			"plain.ts": `import { StringEnum } from "@earendil-works/pi-ai";\nexport default function (pi) { pi.registerCommand("x", { handler: async () => {} }); }\n`,
			"typed.ts": `import { Type } from "typebox";\nexport default function (pi) { pi.registerTool({ name: "t", label: "t", description: "d", parameters: Type.Object({ n: Type.Number() }), execute: async () => ({ content: [], details: {} }) }); }\n`,
			"check.ts": `
import { createEventBus, createModuleLoader, loadExtensions } from ${JSON.stringify(join(root, "src/extensions/index.ts"))};
import { loadVirtualModules } from ${JSON.stringify(join(root, "src/sdk/index.ts"))};
const loaded = () => Object.keys(require.cache).some((k) => /node_modules\\/typebox\\/build\\//.test(k));
const loader = await createModuleLoader(await loadVirtualModules(), ${JSON.stringify(join(dir, ".jiti"))}, "bun");
const steps = [loaded()];
await loadExtensions([{ path: ${JSON.stringify(join(dir, "plain.ts"))}, scope: "cli" }], loader, createEventBus());
steps.push(loaded());
const typed = await loadExtensions([{ path: ${JSON.stringify(join(dir, "typed.ts"))}, scope: "cli" }], loader, createEventBus());
steps.push(loaded(), typed.diagnostics.length);
console.log(JSON.stringify(steps));
`,
		});
		const run = Bun.spawnSync([process.execPath, join(dir, "check.ts")], { cwd: dir, stdout: "pipe", stderr: "pipe" });
		expect(run.stderr.toString()).toBe("");
		// After the table, after an extension without `typebox`, after one with it (which loaded cleanly).
		expect(JSON.parse(run.stdout.toString())).toEqual([false, false, true, 0]);
	}, 30_000);

	test("pi's examples importing `typebox` register the schemas pi 0.87.1 registers, and their tools validate", async () => {
		const pi = ensureRunnablePi();
		const pkg = ensurePackage(PINNED[0]);
		if ("error" in pi || "error" in pkg) {
			console.warn(`typebox examples: skipped: ${"error" in pi ? pi.error : (pkg as { error: string }).error}`);
			return;
		}
		const examples = join(pkg.dir, "examples", "extensions");
		const files = [
			"questionnaire.ts",
			"question.ts",
			"truncated-tool.ts",
			"tic-tac-toe.ts",
			"structured-output.ts",
			"todo.ts",
			"tool-override.ts",
		]
			.map((name) => join(examples, name))
			.filter((path) => /from ["']typebox["']/.test(readFileSync(path, "utf8")));
		expect(files.length).toBeGreaterThan(3);

		const agentDir = makeTempDir("pi-tb1-agent-");
		const script = `
import { discoverAndLoadExtensions } from "@earendil-works/pi-coding-agent";
const out = {};
for (const path of ${JSON.stringify(files)}) {
	const result = await discoverAndLoadExtensions([path], ${JSON.stringify(agentDir)}, ${JSON.stringify(agentDir)});
	const tools = {};
	for (const ext of result.extensions) for (const [name, tool] of ext.tools) tools[name] = tool.definition.parameters;
	out[path] = { tools, errors: result.errors.length };
}
console.log(JSON.stringify(out));`;
		const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
			cwd: dirname(pi.modules),
			stdout: "pipe",
			stderr: "pipe",
			env: { ...process.env, HOME: agentDir },
		});
		expect(run.stderr.toString()).toBe("");
		const theirs = JSON.parse(run.stdout.toString()) as Record<
			string,
			{ tools: Record<string, unknown>; errors: number }
		>;

		const loader = await createModuleLoader(await loadVirtualModules(), join(agentDir, ".jiti"), "bun");
		let compared = 0;
		for (const path of files) {
			const result = await loadExtensions([{ path, scope: "cli" }], loader, createEventBus());
			expect(result.diagnostics).toEqual([]);
			const tools: Record<string, unknown> = {};
			for (const ext of result.extensions) {
				for (const [name, tool] of ext.handle.registrations.tools)
					tools[name] = (tool as { parameters: unknown }).parameters;
			}
			expect({ path, tools: JSON.parse(JSON.stringify(tools)) }).toEqual({ path, tools: theirs[path]?.tools ?? {} });
			compared += Object.keys(tools).length;
			expect(theirs[path]?.errors).toBe(0);
			// Each schema checks arguments: an empty object fails exactly when the schema requires something.
			for (const [name, schema] of Object.entries(tools)) {
				const required = ((schema as { required?: string[] }).required ?? []).length > 0;
				expect({ name, ok: validateToolArguments(name, schema as never, {}).ok }).toEqual({ name, ok: !required });
			}
		}
		expect(compared).toBeGreaterThan(3);
	}, 120_000);
});
