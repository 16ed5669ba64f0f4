/** `resolveCliModel` and `resolveModelScopeWithDiagnostics`: the same cases against ours and pi 0.87.1's. */
import { describe, expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { type PiReference, piReference, runSideBySide } from "../../support/pi-reference.ts";

const pi = piReference("model-resolver-vs-pi");

const SCRIPT = `
const fs = await import("node:fs");
const path = await import("node:path");
const m = (id, name, reasoning = false) => ({ id, name, reasoning, input: ["text"], contextWindow: 1000, maxTokens: 100,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
fs.writeFileSync(path.join(args.dir, "models.json"), JSON.stringify({ providers: {
	zqa: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "a",
		models: [m("zqx-alpha", "Alpha"), m("zqx-alpha-20240101", "Alpha dated"), m("zqx-beta", "Beta", true), m("zqx-gamma-pro", "Gamma Pro")] },
	zqb: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "b",
		models: [m("zqx-alpha", "Alpha B"), m("zqx-beta:exacto", "Beta exacto")] },
	zqc: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "$ZQC_UNSET_KEY_VARIABLE",
		models: [m("zqx-delta", "Delta")] },
} }));
const runtime = await pi.ModelRuntime.create({ authPath: path.join(args.dir, "auth.json"), modelsPath: path.join(args.dir, "models.json") });
const show = (r) => ({ model: r.model ? [r.model.provider, r.model.id, r.model.name, r.model.reasoning] : null,
	thinkingLevel: r.thinkingLevel ?? null, warning: r.warning ?? null, error: r.error ?? null });
const cli = [
	{ cliModel: "zqx-alpha" }, { cliProvider: "zqa", cliModel: "zqx-alpha:high" }, { cliModel: "zqa/zqx-beta" },
	{ cliModel: "zqa/unknown-id:low" }, { cliProvider: "zqa", cliModel: "brand-new", cliThinking: "high" },
	{ cliProvider: "nope", cliModel: "x" }, { cliModel: "zqx-gam" }, { cliModel: "zqb/zqx-beta:exacto" },
	{ cliModel: "zqx-beta:exacto" }, { cliModel: "totally-unknown-zzz" }, {}, { cliModel: "zqa/zqx-alpha:bogus" },
	{ cliModel: "ZQA/ZQX-BETA" }, { cliModel: "zqx-delta" }, { cliProvider: "ZQB", cliModel: "zqb/zqx-alpha" },
].map((o) => show(pi.resolveCliModel({ ...o, modelRuntime: runtime })));
const scope = await pi.resolveModelScopeWithDiagnostics(
	["zqa/*", "*gamma*:high", "zqx-beta:bogus", "nothing-zzz", "zqb/zqx-alpha", "zqx-alpha", "zqx-delta", "zq?/zqx-beta*"], runtime);
return { cli, scope: { models: scope.scopedModels.map((s) => [s.model.provider, s.model.id, s.thinkingLevel ?? null]), diagnostics: scope.diagnostics } };
`;

describe("model resolution", () => {
	(pi ? test : test.skip)(
		"resolveCliModel and resolveModelScopeWithDiagnostics choose as pi 0.87.1 does",
		async () => {
			const { expected, actual } = await runSideBySide(pi as PiReference, ours, SCRIPT, {
				prefix: "pi-res",
				env: { PI_OFFLINE: "1" },
			});
			expect(actual).toEqual(expected as never);
		},
		60_000,
	);
});
