/**
 * Helpers of the AgentHarness parity script: a scripted stream function (`fauxModels`), the faux model and usage,
 * a normalizer (ids → `#n` by first appearance, clock times → `<t>`, storage sequence numbers dropped), result
 * and error views, a harness set-up that records every event, and an echo tool.
 */ export const model = {
	id: "m1",
	name: "m1",
	api: "faux",
	provider: "faux",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100000,
	maxTokens: 1000,
};
export const usage = {
	input: 1,
	output: 2,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 3,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
export const text = (t) => ({ type: "text", text: t });
export const call = (id, name, args) => ({ type: "toolCall", id, name, arguments: args });

/** A stream function playing `steps` in order; a step `{ hang: true }` waits for the abort signal. */
export function fauxModels(ai, steps, requests) {
	let n = 0;
	return {
		getModel: (provider, id) => (provider === "faux" && id === "m1" ? model : undefined),
		streamSimple: (_m, context, options) => {
			requests.push({
				systemPrompt: context.systemPrompt,
				roles: context.messages.map((m) => m.role),
				tools: (context.tools ?? []).map((t) => t.name),
				options: Object.keys(options)
					.filter((k) => options[k] !== undefined)
					.sort(),
				sessionId: String(options.sessionId).replace(/^[^:]*/, "<session>"),
			});
			const step = steps[n++] ?? { content: [text("(no script)")], stopReason: "stop" };
			const stream = ai.createAssistantMessageEventStream();
			const base = {
				role: "assistant",
				content: [],
				api: "faux",
				provider: "faux",
				model: "m1",
				usage,
				timestamp: 1000 + n,
			};
			const play = async () => {
				const cur = { ...base, stopReason: step.stopReason ?? "stop", content: [] };
				const snap = () => ({ ...cur, content: cur.content.map((b) => ({ ...b })) });
				stream.push({ type: "start", partial: snap() });
				if (step.hang) {
					await new Promise((resolve) => options.signal?.addEventListener("abort", resolve, { once: true }));
					const final = { ...snap(), stopReason: "aborted", errorMessage: "Request was aborted" };
					stream.push({ type: "error", reason: "aborted", error: final });
					stream.end(final);
					return;
				}
				for (const [i, block] of step.content.entries()) {
					if (block.type === "text") {
						cur.content.push(text(""));
						stream.push({ type: "text_start", contentIndex: i, partial: snap() });
						cur.content[i] = text(block.text);
						stream.push({ type: "text_delta", contentIndex: i, delta: block.text, partial: snap() });
						stream.push({ type: "text_end", contentIndex: i, content: block.text, partial: snap() });
					} else {
						cur.content.push({ ...block, arguments: {} });
						stream.push({ type: "toolcall_start", contentIndex: i, partial: snap() });
						cur.content[i] = block;
						stream.push({ type: "toolcall_end", contentIndex: i, toolCall: block, partial: snap() });
					}
				}
				const final = { ...snap(), ...(step.errorMessage ? { errorMessage: step.errorMessage } : {}) };
				if (final.stopReason === "error") stream.push({ type: "error", reason: "error", error: final });
				else stream.push({ type: "done", reason: final.stopReason, message: final });
				stream.end(final);
			};
			setTimeout(() => void play(), 0);
			return stream;
		},
	};
}

export const ALL =
	"run_start run_end turn_start turn_end message_start message_update message_end tool_start tool_update tool_end entry_added queue_update lane_created usage config_update fault handler_error operation_abort value_update retry_scheduled retry_start retry_end".split(
		" ",
	);

export function normalizer() {
	const ids = new Map();
	const id = (s) => {
		if (!ids.has(s)) ids.set(s, `#${ids.size + 1}`);
		return ids.get(s);
	};
	const walk = (v) => {
		if (typeof v === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v))
			return id(v);
		if (typeof v === "number" && v > 1e12) return "<t>";
		if (Array.isArray(v)) return v.map((x) => walk(x));
		if (v && typeof v === "object") {
			const out = {};
			for (const [k, x] of Object.entries(v)) if (k !== "seq" && k !== "stack" && x !== undefined) out[k] = walk(x);
			return out;
		}
		return v;
	};
	return (v) => walk(JSON.parse(JSON.stringify(v ?? null)));
}

export const errOf = (e) => ({ thrown: e?.name, message: e?.message, tag: e?._tag });
export const res = (r) =>
	r.ok ? { ok: true, value: r.value } : { ok: false, error: { tag: r.error._tag, ...r.error.toJSON?.() } };

export async function setup(core, ai, steps, extra = {}) {
	const ctx = core.BACKGROUND_CONTEXT;
	const requests = [];
	const repo = extra.repo ?? new core.MemorySessionRepo();
	const session = extra.session ?? (await repo.create(extra.createOptions ?? { id: "s1" }, ctx));
	const { harness, open } = await core.AgentHarness.create(
		{
			session,
			models: fauxModels(ai, steps, requests),
			model,
			systemPrompt: "SYS",
			tools: extra.tools ?? [],
			...extra.options,
		},
		ctx,
	);
	const events = [];
	for (const type of ALL) harness.events.on(type, (e) => void events.push(e));
	return { ctx, repo, session, harness, open, events, requests };
}

export function echoTool(onRun) {
	return {
		name: "echo",
		label: "Echo",
		description: "echo",
		parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
		execute: async (_id, params, onUpdate) => {
			onUpdate({ content: [text("partial")], details: {} });
			await onRun?.();
			return { content: [text(`echo ${JSON.stringify(params)}`)], details: { ok: true } };
		},
	};
}
