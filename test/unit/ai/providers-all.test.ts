/**
 * `pi-ai/providers/all` as extensions import it: the catalogue reads under pi 0.87.1's `getBuiltin*` names, and
 * `getBuiltinModelDataGeneratedAt()` giving the same instant as pi-ai's (both read the same published data).
 */
import { expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import type { StreamOptions } from "../../../src/ai/types.ts";
import * as all from "../../../src/sdk/pi-ai-providers-all.ts";

const so = (options: StreamOptions): StreamOptions => options;

test("the built-in catalogue reads answer from our catalogue", () => {
	expect(all.getBuiltinProviders()).toContain("anthropic");
	const [first] = all.getBuiltinModels("anthropic");
	expect(first?.provider).toBe("anthropic");
	expect(all.getBuiltinModel("anthropic", first?.id ?? "")).toBe(first);
	expect(all.getBuiltinModels("no-such-provider")).toEqual([]);
	const at = all.getBuiltinModelDataGeneratedAt();
	expect(typeof at).toBe("number");
	expect(Number.isInteger(at)).toBe(true);
});

test("getBuiltinModelDataGeneratedAt is pi-ai 0.87.1's", () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`providers/all side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return;
	}
	const script = `import * as m from "@earendil-works/pi-ai/providers/all";
console.log(JSON.stringify(m.getBuiltinModelDataGeneratedAt() ?? null));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
	});
	expect(run.stderr.toString()).toBe("");
	expect(all.getBuiltinModelDataGeneratedAt()).toBe(JSON.parse(run.stdout.toString()));
});

/** Runs `body` (module code with `m` = pi-ai/providers/all) under Node 22 against pi 0.87.1; undefined = skipped. */
function piRun(label: string, body: string, env: Record<string, string> = {}): unknown {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`${label}: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return undefined;
	}
	const script = `import * as m from "@earendil-works/pi-ai/providers/all";\n${body}`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", ...env },
	});
	if (run.exitCode !== 0) throw new Error(run.stderr.toString());
	return JSON.parse(run.stdout.toString());
}

const DESCRIBE_PROVIDERS = `(providers) => providers.map((p) => ({
	id: p.id, name: p.name, baseUrl: p.baseUrl ?? null,
	apiKey: p.auth.apiKey?.name ?? null, oauth: p.auth.oauth?.name ?? null,
	subscription: p.auth.oauth?.isSubscription ?? null, loginLabel: p.auth.oauth?.loginLabel ?? null,
	models: p.getModels().map((x) => x.id).sort(), refresh: typeof p.refreshModels, filter: typeof p.filterModels,
}))`;

test("builtinProviders() gives pi 0.87.1's providers: names, base URLs, auth methods, models", () => {
	const describe = new Function(`return ${DESCRIBE_PROVIDERS}`)() as (p: unknown[]) => unknown[];
	const theirs = piRun(
		"builtinProviders side by side",
		`console.log(JSON.stringify((${DESCRIBE_PROVIDERS})(m.builtinProviders())));`,
	);
	const ours = describe(all.builtinProviders()) as Array<Record<string, unknown>>;
	expect(ours.length).toBe(41);
	if (theirs === undefined) return;
	const strip = (list: Array<Record<string, unknown>>) =>
		list.map(({ refresh, filter, ...rest }) => ({ ...rest, refreshes: refresh === "function" }));
	// pi's createProvider always has filterModels/refreshModels slots; ours only fills the ones a provider uses.
	expect(strip(ours).map(({ refreshes, ...p }) => p)).toEqual(
		strip(theirs as Array<Record<string, unknown>>).map(({ refreshes, ...p }) => p),
	);
});

test("builtin auth resolves as pi's: Anthropic bearer token, Cloudflare gateway header and ids, Vertex without files", async () => {
	const env = {
		ANTHROPIC_AUTH_TOKEN: "tok-1",
		CLOUDFLARE_API_KEY: "cf-key",
		CLOUDFLARE_ACCOUNT_ID: "acct",
		CLOUDFLARE_GATEWAY_ID: "gw",
		GOOGLE_CLOUD_PROJECT: "proj",
		GOOGLE_CLOUD_LOCATION: "us-central1",
		OPENAI_API_KEY: "sk-o",
	};
	const ids = ["anthropic", "cloudflare-ai-gateway", "cloudflare-workers-ai", "google-vertex", "openai", "groq"];
	const body = `const models = m.builtinModels();
const out = {};
for (const id of ${JSON.stringify(ids)}) {
	const r = await models.getAuth(id);
	out[id] = r === undefined ? null : { auth: r.auth, env: r.env ?? null, source: r.source ?? null };
}
console.log(JSON.stringify(out));`;
	const saved = { ...process.env };
	Object.assign(process.env, env, { HOME: "/nonexistent" });
	let ours: Record<string, unknown>;
	try {
		const models = all.builtinModels();
		ours = {};
		for (const id of ids) {
			const r = await models.getAuth(id);
			ours[id] = r === undefined ? null : { auth: r.auth, env: r.env ?? null, source: r.source ?? null };
		}
	} finally {
		for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
		process.env.HOME = saved.HOME;
	}
	expect((ours["cloudflare-ai-gateway"] as { auth: { headers: Record<string, string> } }).auth.headers).toMatchObject({
		"cf-aig-authorization": "Bearer cf-key",
	});
	const theirs = piRun("builtin auth side by side", body, env) as Record<string, unknown> | undefined;
	if (theirs === undefined) return;
	// pi removes the default auth headers with null values; ours sends no key for the gateway, so none is added.
	const gateway = theirs["cloudflare-ai-gateway"] as { auth: { headers: Record<string, string | null> } };
	for (const [name, value] of Object.entries(gateway.auth.headers))
		if (value === null) delete gateway.auth.headers[name];
	expect(ours).toEqual(theirs);
});

test("Cloudflare base URLs are filled from the resolved env; OpenCode requests carry the session header", async () => {
	const { fillCloudflareBaseUrl, withOpenCodeSession } = await import("../../../src/ai/builtin/wrappers.ts");
	const [model] = all.getBuiltinModels("cloudflare-ai-gateway");
	if (!model) throw new Error("no gateway model in the catalogue");
	const filled = fillCloudflareBaseUrl(model, { CLOUDFLARE_ACCOUNT_ID: "acct", CLOUDFLARE_GATEWAY_ID: "gw" });
	expect(filled.baseUrl).not.toContain("{");
	expect(filled.baseUrl).toContain("/acct/gw");
	expect(fillCloudflareBaseUrl(model, undefined)).toBe(model);
	expect(
		withOpenCodeSession<{ sessionId: string; headers?: Record<string, string> }>({ sessionId: "s1" })?.headers,
	).toEqual({ "x-opencode-session": "s1" });
	expect(withOpenCodeSession({ sessionId: "s1", headers: { "X-OpenCode-Session": "mine" } })?.headers).toEqual({
		"X-OpenCode-Session": "mine",
	});
});

test("builtinImagesProviders() is OpenRouter's image catalogue, as in pi", () => {
	const theirs = piRun(
		"builtinImagesProviders side by side",
		"console.log(JSON.stringify(m.builtinImagesProviders().map((p) => ({ id: p.id, name: p.name, models: p.getModels().length, apiKey: p.auth.apiKey?.name, oauth: p.auth.oauth?.name }))));",
	);
	const ours = all.builtinImagesProviders().map((p) => ({
		id: p.id,
		name: p.name,
		models: p.getModels().length,
		apiKey: p.auth.apiKey?.name,
		oauth: p.auth.oauth?.name,
	}));
	expect(ours[0]?.id).toBe("openrouter");
	if (theirs !== undefined) expect(ours).toEqual(theirs as typeof ours);
});

test("CLI requests to Cloudflare and OpenCode get the same adjustments (login env over the environment)", async () => {
	const { adjustBuiltinRequest } = await import("../../../src/ai/builtin/wrappers.ts");
	const [workers] = all.getBuiltinModels("cloudflare-workers-ai");
	const [gateway] = all.getBuiltinModels("cloudflare-ai-gateway");
	const [zen] = all.getBuiltinModels("opencode");
	if (!workers || !gateway || !zen) throw new Error("catalogue is missing a Cloudflare or OpenCode model");
	const processEnv = { CLOUDFLARE_ACCOUNT_ID: "from-env", CLOUDFLARE_GATEWAY_ID: "gw-env" };
	const w = adjustBuiltinRequest(workers, so({ apiKey: "k" }), processEnv);
	expect(w.model.baseUrl).toContain("/accounts/from-env/");
	const stored = adjustBuiltinRequest(workers, { apiKey: "k", env: { CLOUDFLARE_ACCOUNT_ID: "stored" } }, processEnv);
	expect(stored.model.baseUrl).toContain("/accounts/stored/");
	const g = adjustBuiltinRequest(gateway, so({ apiKey: "k" }), processEnv);
	expect(g.model.baseUrl).toContain("/from-env/gw-env");
	expect(g.options?.headers).toEqual({ "cf-aig-authorization": "Bearer k" });
	expect(adjustBuiltinRequest(g.model, g.options, processEnv).options?.headers).toEqual(g.options?.headers);
	const o = adjustBuiltinRequest(zen, so({ sessionId: "sess-1" }), {});
	expect(o.options?.headers).toEqual({ "x-opencode-session": "sess-1" });
});
