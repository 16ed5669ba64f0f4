/**
 * pi-ai 0.87.1's helpers and ours give the same results on the same inputs. One script of cases (plain JavaScript
 * over the module namespace `m`) runs against pi's `@earendil-works/pi-ai/compat` (what pi hands extensions for
 * `@earendil-works/pi-ai`) under Node 22 from the conformance cache
 * and against our `pi-ai` module in process; the JSON results must be equal. Without the cache it skips, saying why.
 */
import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import * as ours from "../../../src/sdk/pi-ai.ts";

/** `async (m) => results`, evaluated on both sides. Everything it returns must survive JSON. */
const CASES = String.raw`async (m) => {
	const out = {};
	const attempt = (fn) => { try { return { ok: fn() }; } catch (e) { return { error: String(e && e.message) }; } };
	const msg = (over) => ({ role: "assistant", content: [], api: "x", provider: "p", model: "m",
		usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
		stopReason: "error", timestamp: 1, ...over });

	const json = ['{"a":1}', '[1,2]', '"s"', '{"s":"line\nbreak"}', '{"p":"C:\\dir\\x"}', '{"u":"\\u12"}', '{"t":"\\q"}',
		'{"a": 1, "b": [1, 2', '{"path": "src/ma', '{"a": 1, "b', '', '   ', 'nonsense', '{"s": "x\\', '{"n": 12', '[{"a":1},{"b"'];
	out.repairJson = json.map((s) => m.repairJson(s));
	out.parseJsonWithRepair = json.map((s) => attempt(() => m.parseJsonWithRepair(s)).ok !== undefined);
	out.parseStreamingJson = json.map((s) => m.parseStreamingJson(s));

	const texts = ["prompt is too long: 213462 tokens > 200000 maximum", "request_too_large", "Your input exceeds the context window of this model",
		"Requested token count exceeds the model's maximum context length of 131072 tokens", "maximum context length is 8192 tokens",
		"This model's maximum context length is large", "ThrottlingException: Too many tokens, please wait", "Throttling error: Too many tokens",
		"400 status code (no body)", "rate limit: too many tokens", "context_length_exceeded", "Overloaded", "429 Too Many Requests",
		"insufficient_quota: billing", "fetch failed", "socket hang up", "Provider returned error", "invalid api key", "Monthly usage limit reached 429",
		"stream ended before message_stop", "ResourceExhausted", "500 internal error", "the operation timed out"];
	out.overflow = texts.map((t) => [m.isContextOverflow(msg({ errorMessage: t })), m.isContextOverflow(msg({ errorMessage: t, provider: "cerebras" }))]);
	out.silentOverflow = [m.isContextOverflow(msg({ stopReason: "stop" }), 12), m.isContextOverflow(msg({ stopReason: "stop" }), 5),
		m.isContextOverflow(msg({ stopReason: "length", usage: { ...msg({}).usage, input: 99, output: 0 } }), 100),
		m.isContextOverflow(msg({ stopReason: "length", usage: { ...msg({}).usage, input: 98, output: 0 } }), 100)];
	out.recoverableLength = [m.isRecoverableLength(msg({ stopReason: "length" }), 10), m.isRecoverableLength(msg({ stopReason: "length" }), 5),
		m.isRecoverableLength(msg({ stopReason: "stop" }), 10), m.isRecoverableLength(msg({ stopReason: "length" }), 0)];
	out.overflowPatterns = m.getOverflowPatterns().map(String);
	out.retryable = texts.map((t) => m.isRetryableAssistantError(msg({ errorMessage: t })));
	out.retryDelay = [[1000, 1], [1000, 2], [1000, 7], [1000, 0], [5, 3]].map(([b, a]) => m.retryDelayMs({ baseDelayMs: b }, a))
		.concat([m.retryDelayMs({ baseDelayMs: 1000, maxAgentDelayMs: 1500 }, 3), m.DEFAULT_MAX_AGENT_RETRY_DELAY_MS]);
	const calls = [];
	const replies = [msg({ errorMessage: "overloaded" }), msg({ errorMessage: "503 service unavailable" }), msg({ stopReason: "stop" })];
	const result = await m.retryAssistantCall(async () => replies.shift(), { enabled: true, maxRetries: 3, baseDelayMs: 1 }, undefined, {
		onRetryScheduled: (...a) => calls.push(["scheduled", ...a]), onRetryAttemptStart: () => calls.push(["start"]),
		onRetryFinished: (...a) => calls.push(["finished", ...a]) });
	out.retryLoop = { calls, stopReason: result.stopReason };
	const permanent = await m.retryAssistantCall(async () => msg({ errorMessage: "invalid api key" }), { enabled: true, maxRetries: 3, baseDelayMs: 1 }, undefined);
	out.retryPermanent = permanent.errorMessage;
	const aborter = new AbortController();
	const aborted = await m.retryAssistantCall(async () => msg({ errorMessage: "overloaded" }), { enabled: true, maxRetries: 3, baseDelayMs: 10000 }, aborter.signal,
		{ onRetryScheduled: () => aborter.abort() });
	out.retryAborted = [aborted.stopReason, "errorMessage" in aborted];

	const model = (reasoning, map) => ({ id: "x", provider: "p", api: "a", reasoning, thinkingLevelMap: map, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } });
	const models = [model(false), model(true), model(true, { xhigh: "xhigh" }), model(true, { off: null, minimal: null }),
		model(true, { low: null, medium: null, max: "max" }), model(true, { high: null, xhigh: null })];
	const levels = ["off", "minimal", "low", "medium", "high", "xhigh", "max", "bogus"];
	out.thinking = models.map((mo) => [m.getSupportedThinkingLevels(mo), levels.map((l) => m.clampThinkingLevel(mo, l))]);
	out.hasApi = [m.hasApi(models[0], "a"), m.hasApi(models[0], "b")];
	out.modelsAreEqual = [m.modelsAreEqual(models[0], models[1]), m.modelsAreEqual(models[0], { id: "y", provider: "p" }), m.modelsAreEqual(null, models[0])];
	const usage = (over) => ({ input: 1000, output: 500, cacheRead: 200, cacheWrite: 100, totalTokens: 1800,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }, ...over });
	const tiered = { ...models[0], cost: { ...models[0].cost, tiers: [{ inputTokensAbove: 1000, input: 6, output: 30, cacheRead: 0.6, cacheWrite: 7.5 },
		{ inputTokensAbove: 100000, input: 9, output: 40, cacheRead: 1, cacheWrite: 9 }] } };
	out.cost = [m.calculateCost(models[0], usage()), m.calculateCost(models[0], usage({ cacheWrite1h: 60 })), m.calculateCost(tiered, usage()),
		m.calculateCost(tiered, usage({ input: 500 }))];

	out.contentText = [m.contentText("plain"), m.contentText([{ type: "text", text: "a" }, { type: "image", data: "", mimeType: "x" }, { type: "text", text: "b" }]),
		m.contentText([{ type: "text", text: "a" }, { type: "text", text: "b" }], " | ")];
	const coded = Object.assign(new Error("boom"), { code: "E1" });
	out.thrown = [new Error("m"), Object.assign(new Error(""), { name: "Named" }), "str", 42, null, undefined, { a: 1 }].map((v) => m.formatThrownValue(v));
	out.diagnostic = [m.extractDiagnosticError(coded), m.extractDiagnosticError(7)].map(({ stack, ...rest }) => rest);
	const withDiag = {};
	m.appendAssistantMessageDiagnostic(withDiag, { type: "t", timestamp: 1 });
	m.appendAssistantMessageDiagnostic(withDiag, { type: "u", timestamp: 2 });
	out.appendDiagnostic = withDiag;
	const d = m.createAssistantMessageDiagnostic("retry", new TypeError("bad"), { n: 1 });
	out.createDiagnostic = [d.type, d.error.name, d.error.message, d.details, typeof d.timestamp];

	const schema = { type: "object", properties: { n: { type: "number" }, i: { type: "integer" }, b: { type: "boolean" }, s: { type: "string" },
		o: { type: "string" }, list: { type: "array", items: { type: "integer" } }, u: { anyOf: [{ type: "number" }, { type: "boolean" }] },
		nested: { type: "object", properties: { x: { type: "number" } }, additionalProperties: { type: "boolean" } } }, required: ["n"] };
	const tool = { name: "t", description: "", parameters: schema };
	const argsList = [{ n: 1 }, { n: "2", i: "3", b: "true", s: 5, list: ["1", 2] }, { n: "x" }, {}, { n: 1, o: null }, { n: 1, u: "true" },
		{ n: 1, nested: { x: "4", extra: "false" } }, { n: 1.5, i: 1.5 }, { n: null }, { n: 1, b: 0, s: null }];
	out.validate = argsList.map((a) => attempt(() => m.validateToolArguments(tool, { type: "toolCall", id: "1", name: "t", arguments: a })));
	out.validateCall = [attempt(() => m.validateToolCall([tool], { type: "toolCall", id: "1", name: "nope", arguments: {} }))];
	out.stringEnum = [JSON.stringify(m.StringEnum(["a", "b"])), JSON.stringify(m.StringEnum(["a"], { description: "d", default: "a" }))];
	out.typeObject = JSON.stringify(m.Type.Object({ a: m.Type.String(), b: m.Type.Optional(m.Type.Number()) }));

	const ids = [m.uuidv7(), m.uuidv7(), m.uuidv7(0), m.uuidv7(0xffffffffffff)];
	out.uuid = [ids.map((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)), ids[0] < ids[1],
		ids[2].slice(0, 13), ids[3].slice(0, 13), attempt(() => m.uuidv7(-1)).error, attempt(() => m.uuidv7(1.5)).error];

	// Frames: a live partial shared by the events, as providers emit them.
	const partial = { ...msg({ stopReason: "pending", usage: msg({}).usage }), content: [] };
	const events = [];
	const snap = () => partial;
	events.push({ type: "start", partial: snap() });
	partial.content.push({ type: "text", text: "He" });
	events.push({ type: "text_start", contentIndex: 0, partial: snap() });
	events.push({ type: "text_delta", contentIndex: 0, delta: "He", partial: snap() });
	partial.content[0].text += "llo";
	events.push({ type: "text_delta", contentIndex: 0, delta: "llo", partial: snap() });
	partial.content[0].textSignature = "sig";
	events.push({ type: "text_end", contentIndex: 0, content: "Hello", partial: snap() });
	partial.content.push({ type: "thinking", thinking: "" });
	events.push({ type: "thinking_start", contentIndex: 1, partial: snap() });
	partial.content[1].thinking = "hmm";
	events.push({ type: "thinking_delta", contentIndex: 1, delta: "hmm", partial: snap() });
	events.push({ type: "thinking_end", contentIndex: 1, content: "hmm", partial: snap() });
	partial.content.push({ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } });
	events.push({ type: "toolcall_start", contentIndex: 2, partial: snap() });
	events.push({ type: "toolcall_delta", contentIndex: 2, delta: '{"pa', partial: snap() });
	events.push({ type: "toolcall_delta", contentIndex: 2, delta: 'th":"a', partial: snap() });
	events.push({ type: "toolcall_delta", contentIndex: 2, delta: 'bc"}', partial: snap() });
	events.push({ type: "toolcall_end", contentIndex: 2, toolCall: { type: "toolCall", id: "c1", name: "read", arguments: { path: "abc" } }, partial: snap() });
	partial.content.push({ type: "toolCall", id: "c2", name: "ls", arguments: {} });
	events.push({ type: "toolcall_start", contentIndex: 3, partial: snap() });
	events.push({ type: "toolcall_delta", contentIndex: 3, delta: '{"dir":"s', partial: snap() });
	const encoder = new m.AssistantMessageFrameEncoder();
	const frames = events.map((e) => encoder.encode(e)).filter((f) => f !== undefined);
	out.frames = frames;
	out.reduced = m.reduceAssistantMessageFrames(frames);
	out.reduceNoStart = m.reduceAssistantMessageFrames([]) === undefined;
	out.encoderErrors = [attempt(() => new m.AssistantMessageFrameEncoder().encode({ type: "text_delta", contentIndex: 0, delta: "x", partial })).error,
		attempt(() => { const e = new m.AssistantMessageFrameEncoder(); e.encode({ type: "start", partial }); e.encode({ type: "start", partial }); }).error,
		attempt(() => m.reduceAssistantMessageFrames([{ type: "start", partial }, { type: "text_delta", contentIndex: 0, delta: "x" }])).error];

	// Collections: a faux provider inside createModels.
	const faux = m.fauxProvider({ models: [{ id: "f1" }] });
	const models2 = m.createModels();
	models2.setProvider(faux.provider);
	faux.setResponses([m.fauxAssistantMessage("hello there"), m.fauxAssistantMessage([m.fauxThinking("t"), m.fauxToolCall("read", { p: 1 }, { id: "x" })], { stopReason: "toolUse" })]);
	const mf = models2.getModel("faux", "f1");
	const r1 = await models2.complete(mf, { messages: [{ role: "user", content: "hi", timestamp: 1 }] });
	const r2 = await models2.completeSimple(mf, { messages: [{ role: "user", content: "hi", timestamp: 1 }] });
	const r3 = await models2.complete(mf, { messages: [] });
	const r4 = await models2.complete({ ...mf, provider: "nobody" }, { messages: [] });
	out.models = { providers: models2.getProviders().map((p) => [p.id, p.name]), available: (await models2.getAvailable()).map((x) => x.id),
		auth: await models2.checkAuth("faux"), r1: [r1.content, r1.stopReason, r1.provider, r1.model], r2: [r2.content, r2.stopReason],
		r3: [r3.stopReason, r3.errorMessage], r4: [r4.stopReason, r4.errorMessage], calls: faux.state.callCount };
	const noApi = m.createProvider({ id: "q", auth: { apiKey: { name: "Q", resolve: async () => ({ auth: { apiKey: "k" } }) } }, models: [{ ...mf, provider: "q", api: "other" }], api: {} });
	models2.setProvider(noApi);
	const r5 = await models2.complete(noApi.getModels()[0], { messages: [] });
	out.noApi = [r5.stopReason, r5.errorMessage];
	// A collection hands its providers the transcript form of a context (a system message first, no systemPrompt).
	let seen;
	const capture = () => { throw new Error("captured"); };
	const spy = m.createProvider({ id: "spy", auth: { apiKey: { name: "S", resolve: async () => ({ auth: { apiKey: "k" } }) } }, models: [{ ...mf, provider: "spy", api: "spy-api" }],
		api: { stream: (_m, ctx) => { seen = ctx; return capture(); }, streamSimple: (_m, ctx) => { seen = ctx; return capture(); } } });
	models2.setProvider(spy);
	const r6 = await models2.complete(spy.getModels()[0], { systemPrompt: "be brief", tools: [{ name: "t", description: "d", parameters: { type: "object", properties: {} } }], messages: [{ role: "user", content: "hi", timestamp: 1 }] });
	out.transcriptForProviders = [r6.stopReason, seen && Object.keys(seen).sort(), seen && seen.messages.map((x) => x.role), seen && seen.messages[0]];
	const err = new m.ModelsError("auth", "Credential store read failed for x", { cause: new Error("disk gone") });
	out.modelsError = [err.name, err.code, err.message, err instanceof Error];
	const store = new m.InMemoryCredentialStore();
	await store.modify("a", async () => ({ type: "api_key", key: "k" }));
	out.credentials = [await store.read("a"), await store.list(), await store.modify("a", async () => undefined)];
	await store.delete("a");
	out.credentials.push(await store.read("a"));
	const envAuth = m.envApiKeyAuth("Key", ["PI_PARITY_UNSET_1", "PI_PARITY_SET"]);
	const ctx = { env: async (n) => (n === "PI_PARITY_SET" ? "v" : undefined), fileExists: async () => false };
	const signal = new AbortController().signal;
	out.envAuth = [await envAuth.resolve({ ctx, signal }), await envAuth.resolve({ ctx, credential: { type: "api_key", key: "s" }, signal }),
		await envAuth.resolve({ ctx: { env: async () => undefined }, signal })];
	const cleanups = [];
	const off = m.registerSessionResourceCleanup((id) => cleanups.push(id));
	m.cleanupSessionResources("s1");
	off();
	m.cleanupSessionResources("s2");
	const offBad = m.registerSessionResourceCleanup(() => { throw new Error("x"); });
	out.sessionCleanup = [cleanups, attempt(() => m.cleanupSessionResources("s3")).error];
	offBad();
	const lazy = m.lazyStream(mf, async () => { throw new Error("setup broke"); });
	const lazyResult = await lazy.result();
	out.lazy = [lazyResult.stopReason, lazyResult.errorMessage, lazyResult.content];
	const images = m.createImagesModels();
	const ip = m.createImagesProvider({ id: "img", auth: { apiKey: { name: "I", resolve: async () => ({ auth: { apiKey: "k" } }) } },
		models: [{ id: "i1", name: "I1", api: "img-api", provider: "img", baseUrl: "", input: ["text"], output: ["image"], cost: mf.cost }],
		api: { generateImages: async (model, context, options) => ({ api: model.api, provider: model.provider, model: model.id,
			output: [{ type: "text", text: options.apiKey }], stopReason: "stop", timestamp: 1 }) } });
	images.setProvider(ip);
	const gi = await images.generateImages(images.getModel("img", "i1"), { input: [] });
	const gx = await images.generateImages({ ...images.getModel("img", "i1"), provider: "none" }, { input: [] });
	out.images = [gi.output, gi.stopReason, gx.stopReason, gx.errorMessage, images.getModels().length];
	const deferredFaux = m.fauxProvider({ deferred: { pendingFetches: 1 } });
	const deferredModels = m.createModels();
	deferredModels.setProvider(deferredFaux.provider);
	let deferredReplies = 0;
	deferredFaux.setResponses([() => m.fauxAssistantMessage("final " + ++deferredReplies)]);
	const dm = deferredFaux.getModel();
	const submitted = await deferredModels.complete(dm, { messages: [] }, { deferred: true });
	const fetches = [];
	for (let i = 0; i < 3; i++) {
		const fetched = await deferredModels.fetchDeferred(dm, submitted.deferred);
		fetches.push([fetched.stopReason, fetched.content]);
	}
	await deferredModels.cancelDeferred(dm, submitted.deferred);
	const afterCancel = await deferredModels.fetchDeferred(dm, submitted.deferred);
	out.deferred = [submitted.stopReason, Object.keys(submitted.deferred).sort(), fetches, afterCancel.stopReason,
		afterCancel.errorMessage.startsWith("Faux deferred response was cancelled"), deferredFaux.state.deferredFetchCount,
		deferredFaux.state.cancelledDeferred.length, deferredFaux.state.callCount];
	out.envKeys = [m.findEnvKeys("anthropic", { ANTHROPIC_AUTH_TOKEN: "a", ANTHROPIC_API_KEY: "b" }), m.findEnvKeys("openai", { OPENAI_API_KEY: "k" }),
		m.findEnvKeys("github-copilot", { GH_TOKEN: "t" }), m.findEnvKeys("nobody", {}),
		m.getEnvApiKey("anthropic", { ANTHROPIC_AUTH_TOKEN: "a", ANTHROPIC_API_KEY: " b " }), m.getEnvApiKey("anthropic", { ANTHROPIC_AUTH_TOKEN: "a" }),
		m.getEnvApiKey("openai", { OPENAI_API_KEY: "k" }), m.getEnvApiKey("nobody"), m.ANTHROPIC_AUTH_TOKEN_ENV, m.ANTHROPIC_OAUTH_TOKEN_ENV, m.ANTHROPIC_API_KEY_ENV];
	const imageModel = m.getImageModel("openrouter", m.getImageModels("openrouter")[0].id);
	out.imageCatalog = [m.getImageProviders(), m.getImageModels("openrouter").map((x) => x.id), imageModel, m.getImageModels("nobody"),
		m.getImagesApiProvider("openrouter-images")?.api];
	const noKey = await m.generateImages(imageModel, { input: [{ type: "text", text: "a cat" }] });
	out.imageNoKey = [noKey.stopReason, noKey.errorMessage, noKey.output];
	out.imageUnknownApi = await m.generateImages({ ...imageModel, api: "nope" }, { input: [] }).then(() => "resolved", (e) => e.message);
	m.registerImagesApiProvider({ api: "parity-images", generateImages: async (model) => ({ api: model.api, provider: model.provider, model: model.id, output: [], stopReason: "stop", timestamp: 1 }) });
	out.imageMismatch = attempt(() => m.getImagesApiProvider("parity-images").generateImages({ ...imageModel, api: "other" }, { input: [] })).error;
	return out;
}`;

function piResults(): Record<string, unknown> | { skip: string } {
	const pi = ensureRunnablePi();
	if ("error" in pi) return { skip: pi.error };
	const script = `import * as m from "@earendil-works/pi-ai/compat";\nconst cases = ${CASES};\nconsole.log(JSON.stringify(await cases(m)));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		cwd: dirname(pi.modules),
		stdout: "pipe",
		stderr: "pipe",
		env: { ...process.env, PI_PARITY_SET: "" },
	});
	// pi is installed, so a failure here is a broken case, not a reason to skip.
	if (run.exitCode !== 0)
		throw new Error(`node could not run the cases: ${run.stderr.toString().trim().slice(0, 800)}`);
	return JSON.parse(run.stdout.toString());
}

describe("pi-ai helpers behave as pi-ai 0.87.1's", () => {
	test("the same results on the same inputs", async () => {
		const theirs = piResults();
		if ("skip" in theirs) {
			console.warn(`pi-ai parity: skipped: ${theirs.skip}`);
			return;
		}
		const cases = new Function(`return ${CASES}`)() as (m: unknown) => Promise<Record<string, unknown>>;
		const mine = JSON.parse(JSON.stringify(await cases(ours)));
		for (const key of Object.keys(theirs)) expect({ [key]: mine[key] }).toEqual({ [key]: theirs[key] });
		expect(Object.keys(mine).sort()).toEqual(Object.keys(theirs).sort());
	}, 60_000);
});
