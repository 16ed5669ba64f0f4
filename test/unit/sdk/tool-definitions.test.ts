/** Built-in tools in pi's SDK forms (`create*ToolDefinition`, `createCodingTools`, `createReadOnlyTools`). */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as sdk from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const NAMES = ["Read", "Bash", "Edit", "Write", "Grep", "Find", "Ls", "PowerShell"] as const;
const ours: Record<string, any> & typeof sdk = { ...sdk };
const pi = piReference("tool-definitions");

function shape(d: { name: string; label: string; promptSnippet?: string; parameters: unknown }) {
	const params = d.parameters as { properties: Record<string, unknown>; required?: string[] };
	return {
		name: d.name,
		label: d.label,
		promptSnippet: d.promptSnippet,
		properties: Object.keys(params.properties).sort(),
		required: [...(params.required ?? [])].sort(),
	};
}

describe("tool definitions", () => {
	(pi ? test : test.skip)(
		"names, labels, prompt snippets, parameters and tool sets match pi 0.87.1",
		() => {
			const theirs = pi?.run(
				`const cwd = process.cwd();
				const shape = (d) => ({ name: d.name, label: d.label, promptSnippet: d.promptSnippet,
					properties: Object.keys(d.parameters.properties).sort(), required: [...(d.parameters.required ?? [])].sort() });
				return {
					defs: args.map((n) => shape(pi["create" + n + "ToolDefinition"](cwd))),
					tools: args.map((n) => ({ ...shape(pi["create" + n + "Tool"](cwd)), promptSnippet: undefined })),
					coding: pi.createCodingTools(cwd).map((t) => t.name),
					readOnly: pi.createReadOnlyTools(cwd).map((t) => t.name),
				};`,
				NAMES,
			);
			const cwd = process.cwd();
			const mine = {
				defs: NAMES.map((n) => shape(ours[`create${n}ToolDefinition`](cwd))),
				// Our agent tools also carry their prompt snippet (pi keeps it on bash and powershell only).
				tools: NAMES.map((n) => ({ ...shape(ours[`create${n}Tool`](cwd)), promptSnippet: undefined })),
				coding: ours.createCodingTools(cwd).map((t) => t.name),
				readOnly: ours.createReadOnlyTools(cwd).map((t) => t.name),
			};
			expect(JSON.parse(JSON.stringify(mine))).toEqual(theirs as never);
		},
		60_000,
	);

	test("a definition runs the tool, with or without an extension context, and spreads into a new tool", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-defs-"));
		try {
			writeFileSync(join(dir, "a.txt"), "hello\n");
			const read = ours.createReadToolDefinition(dir);
			const result = await read.execute("c1", { path: "a.txt" }, undefined, undefined, {} as never);
			expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("hello") });
			const custom = { ...read, name: "read_twice", execute: read.execute };
			expect((await custom.execute("c2", { path: "a.txt" }, undefined, undefined)).content.length).toBe(1);
			const write = ours.createWriteToolDefinition(dir);
			await write.execute("c3", { path: "b.txt", content: "x" }, undefined, undefined);
			const ls = ours.createReadOnlyTools(dir).find((t) => t.name === "ls");
			const listing = await ls?.execute("c4", {});
			expect(JSON.stringify(listing?.content)).toContain("b.txt");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	(pi && process.platform !== "win32" ? test : test.skip)(
		"the bash definition tells commands the calling context's session, as pi 0.87.1's does",
		async () => {
			const body = `const ctx = { sessionManager: { getSessionId: () => "s-1", getSessionFile: () => "/tmp/s-1.jsonl" },
				model: { provider: "prov", id: "m-1" }, thinkingLevel: "high" };
			const run = async (options, c) => (await def(options).execute("c", { command: "env | grep '^PI_' | grep -v PI_REF_ARGS | sort" }, undefined, undefined, c)).content[0].text.trim();
			return [await run(undefined, ctx), await run({ exposeSessionEnvironment: false }, ctx),
				await run(undefined, { sessionManager: { getSessionId: () => "s-2", getSessionFile: () => undefined } }),
				def(undefined).promptGuidelines?.length ?? 0];`;
			const stale = { PI_SESSION_ID: "stale", PI_MODEL: "stale" };
			const theirs = pi?.run(
				`const def = (o) => pi.createBashToolDefinition(process.cwd(), o); ${body}`,
				undefined,
				stale,
			);
			const saved = { ...process.env };
			Object.assign(process.env, stale);
			try {
				const def = (o?: object) => ours.createBashToolDefinition(process.cwd(), o);
				const mine = await new Function("def", `return (async () => { ${body} })();`)(def);
				expect(mine).toEqual(theirs);
				expect(mine[0]).toContain("PI_SESSION_ID=s-1");
			} finally {
				for (const key of Object.keys(stale)) delete process.env[key];
				Object.assign(process.env, saved);
			}
		},
		60_000,
	);

	test.if(process.platform !== "win32")("the powershell tool says it runs only on Windows", async () => {
		const tool = ours.createPowerShellTool(process.cwd());
		expect(tool.name).toBe("powershell");
		await expect(tool.execute("c", { command: "Get-Date" })).rejects.toThrow(
			"The powershell tool is only available on Windows.",
		);
	});
});
