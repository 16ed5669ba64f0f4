/**
 * How the runner folds handler answers into an outcome, one small reducer per kind (and per chaining rule for
 * the `chained` events). A reducer never sees a handler failure except through `fail` (fail-closed kinds);
 * `apply` reports values of the wrong shape and ignores them, or throws when a wrong shape must fail closed.
 */
import {
	type BoundaryContextPreview,
	type BoundaryOutcome,
	type BoundaryPayload,
	EVENT_TABLE,
	type ExtensionEventName,
	type SessionBoundaryDraft,
} from "./events.ts";
import { describe, isObject, makeEvent, type Reducer, type Report, readable } from "./reducer-kit.ts";
import { context, contextWithSystem } from "./reducers-context.ts";

export { makeEvent, type Reducer, type Report };

interface Shared {
	event: Record<string, any>;
	result?: any;
}
const shared = (payload: object, name: string): Shared => ({ event: makeEvent(name, payload) });

const notify: Reducer<Shared> = {
	start: shared,
	event: (s) => s.event,
	apply: () => false,
	finish: () => undefined,
};

const cancellable: Reducer<Shared> = {
	start: shared,
	event: (s) => s.event,
	apply(s, value, _path, report) {
		if (!readable(value, "an object such as { cancel: true }", report)) return false;
		s.result = value;
		return Boolean(value.cancel);
	},
	finish: (s) => s.result,
};

const blocking: Reducer<Shared> = {
	start: shared,
	event: (s) => s.event,
	apply(s, value, _path, report) {
		if (!readable(value, "{ block: true, reason }", report)) return false;
		s.result = value;
		return Boolean(value.block);
	},
	fail: (_s, reason) => ({ block: true, reason }),
	finish: (s) => s.result,
};

const userBash: Reducer<Shared & { path?: string }> = {
	start: shared,
	event: (s) => s.event,
	apply(s, value, path) {
		if (value === undefined) return false;
		if (!isUserBashResult(value)) {
			throw new Error(
				`invalid user_bash result (${describe(value)}): return undefined to run the command locally, or exactly one of { operations } and { result }`,
			);
		}
		s.result = value;
		s.path = path;
		return true;
	},
	fail: (_s, reason, extensionPath) => ({ error: reason, extensionPath }),
	finish: (s) => (s.result ? { result: s.result, extensionPath: s.path } : {}),
};

function isUserBashResult(value: unknown): boolean {
	if (!isObject(value)) return false;
	const { operations, result } = value;
	if ((operations === undefined) === (result === undefined)) return false;
	if (operations !== undefined) return isObject(operations) && typeof operations.exec === "function";
	return (
		isObject(result) &&
		typeof result.output === "string" &&
		(result.exitCode === undefined || typeof result.exitCode === "number") &&
		typeof result.cancelled === "boolean" &&
		typeof result.truncated === "boolean" &&
		(result.fullOutputPath === undefined || typeof result.fullOutputPath === "string")
	);
}

const projectTrust: Reducer<Shared> = {
	start: shared,
	event: (s) => s.event,
	apply(s, value, _path, report) {
		if (!isObject(value) || !["yes", "no", "undecided"].includes(value.trusted)) {
			report(`ignored a return value of ${describe(value)}; expected { trusted: "yes" | "no" | "undecided" }`);
			return false;
		}
		if (value.trusted === "undecided") return false;
		s.result = value;
		return true;
	},
	finish: (s) => s.result,
};

const RESOURCE_KEYS = ["skillPaths", "promptPaths", "themePaths"] as const;
const aggregate: Reducer<Shared & { found: Record<(typeof RESOURCE_KEYS)[number], object[]> }> = {
	start: (payload, name) => ({ ...shared(payload, name), found: { skillPaths: [], promptPaths: [], themePaths: [] } }),
	event: (s) => s.event,
	apply(s, value, extensionPath, report) {
		if (!readable(value, "{ skillPaths?, promptPaths?, themePaths? }", report)) return false;
		for (const key of RESOURCE_KEYS) {
			const list = value[key];
			if (list === undefined) continue;
			if (!Array.isArray(list)) {
				report(`ignored ${key}: expected an array of paths, got ${describe(list)}`);
				continue;
			}
			for (const path of list) {
				if (typeof path === "string") s.found[key].push({ path, extensionPath });
				else report(`ignored an entry of ${key}: expected a path string, got ${describe(path)}`);
			}
		}
		return false;
	},
	finish: (s) => s.found,
};

// ---- chained rules ----------------------------------------------------------------------------------------------

interface InputState {
	payload: Record<string, any>;
	text: string;
	images: unknown;
	handled: boolean;
}
const input: Reducer<InputState> = {
	start: (payload) => ({ payload, text: payload.text, images: payload.images, handled: false }),
	event: (s) => makeEvent("input", s.payload, { text: s.text, images: s.images }),
	apply(s, value, _path, report) {
		if (!readable(value, '{ action: "continue" | "transform" | "handled" }', report)) return false;
		if (value.action === "handled") {
			s.handled = true;
			return true;
		}
		if (value.action === "transform" && typeof value.text === "string") {
			s.text = value.text;
			s.images = value.images ?? s.images;
		} else if (value.action !== "continue") {
			report(`ignored an input result with action ${JSON.stringify(value.action)} (transform needs a text string)`);
		}
		return false;
	},
	finish(s) {
		if (s.handled) return { action: "handled" };
		const changed = s.text !== s.payload.text || s.images !== s.payload.images;
		return changed ? { action: "transform", text: s.text, images: s.images } : { action: "continue" };
	},
};

const cacheWarming: Reducer<Shared & { action: unknown }> = {
	start: (payload, name) => ({ ...shared(payload, name), action: payload.action }),
	event: (s) => s.event,
	apply(s, value, _path, report) {
		if (!readable(value, '{ action: "warm" | "stop" }', report) || value.action === undefined) return false;
		if (value.action === "warm" || value.action === "stop") s.action = value.action;
		else report(`ignored action ${JSON.stringify(value.action)}; expected "warm" or "stop"`);
		return false;
	},
	finish: (s) => s.action,
};

const providerRequest: Reducer<{ payload: unknown }> = {
	start: (payload) => ({ payload: payload.payload }),
	event: (s) => ({ type: "before_provider_request", payload: s.payload }),
	apply(s, value) {
		if (value !== undefined) s.payload = value;
		return false;
	},
	finish: (s) => s.payload,
};

interface AgentStartState {
	payload: Record<string, any>;
	systemPrompt: string | undefined;
	messages: unknown[];
}
const beforeAgentStart: Reducer<AgentStartState> = {
	start: (payload) => ({ payload, systemPrompt: undefined, messages: [] }),
	event: (s) =>
		makeEvent("before_agent_start", s.payload, s.systemPrompt === undefined ? {} : { systemPrompt: s.systemPrompt }),
	apply(s, value, _path, report) {
		if (!readable(value, "{ message?, systemPrompt? }", report)) return false;
		if (isObject(value.message)) s.messages.push(value.message);
		else if (value.message !== undefined) report(`ignored message: expected an object, got ${describe(value.message)}`);
		if (typeof value.systemPrompt === "string") {
			s.systemPrompt = value.systemPrompt;
			if (isObject(s.payload.systemPromptOptions)) s.payload.systemPromptOptions.forceSystemPrompt = value.systemPrompt;
		} else if (value.systemPrompt !== undefined) {
			report(`ignored systemPrompt: expected a string, got ${describe(value.systemPrompt)}`);
		}
		return false;
	},
	finish: (s) => ({
		messages: s.messages,
		systemPrompt: s.systemPrompt,
		systemPromptOptions: s.payload.systemPromptOptions,
	}),
};

interface BoundaryRun extends BoundaryOutcome {
	base: object;
	name: string;
	build: BoundaryPayload<object>["buildContext"];
}
const boundary: Reducer<BoundaryRun> = {
	async start(payload: BoundaryPayload<object>, name) {
		const { buildContext: build, ...base } = payload;
		const context: BoundaryContextPreview = await build([]);
		return { base, name, build, entries: [], continue: false, context, valid: true };
	},
	event: (s) => makeEvent(s.name, s.base, { entries: s.entries, continue: s.continue, context: s.context }),
	async apply(s, value, _path, report) {
		if (value !== undefined && readable(value, "{ entries?, continue? }", report)) {
			if (Array.isArray(value.entries)) s.entries = value.entries as SessionBoundaryDraft[];
			else if (value.entries !== undefined)
				report(`ignored entries: expected an array, got ${describe(value.entries)}`);
			if (typeof value.continue === "boolean") s.continue = value.continue;
			else if (value.continue !== undefined)
				report(`ignored continue: expected a boolean, got ${describe(value.continue)}`);
		}
		try {
			s.context = await s.build(s.entries);
			s.valid = true;
		} catch (error) {
			s.valid = false;
			report(`invalid boundary entries: ${error instanceof Error ? error.message : String(error)}`, error);
		}
		return false;
	},
	finish: (s) =>
		s.valid
			? { entries: s.entries, continue: s.continue, context: s.context, valid: true }
			: { entries: [], continue: false, context: s.context, valid: false },
};

const messageEnd: Reducer<{ payload: object; message: any; modified: boolean }> = {
	start: (payload) => ({ payload, message: payload.message, modified: false }),
	event: (s) => makeEvent("message_end", s.payload, { message: s.message }),
	apply(s, value, _path, report) {
		if (!readable(value, "{ message }", report) || value.message === undefined) return false;
		if (!isObject(value.message) || value.message.role !== s.message?.role) {
			report(`ignored a replacement message: it must keep the role "${s.message?.role}"`);
			return false;
		}
		s.message = value.message;
		s.modified = true;
		return false;
	},
	finish: (s) => (s.modified ? s.message : undefined),
};

const RESULT_PATCH = {
	content: Array.isArray,
	isError: (v: unknown) => typeof v === "boolean",
	details: () => true,
	usage: isObject,
};
const toolResult: Reducer<Shared & { modified: boolean }> = {
	start: (payload, name) => ({ ...shared(payload, name), modified: false }),
	event: (s) => s.event,
	apply(s, value, _path, report) {
		if (!readable(value, "{ content?, details?, isError?, usage? }", report)) return false;
		for (const [key, valid] of Object.entries(RESULT_PATCH)) {
			if (value[key] === undefined) continue;
			if (!valid(value[key])) {
				report(`ignored ${key}: got ${describe(value[key])}`);
				continue;
			}
			s.event[key] = value[key];
			s.modified = true;
		}
		return false;
	},
	finish: (s) =>
		s.modified
			? { content: s.event.content, details: s.event.details, isError: s.event.isError, usage: s.event.usage }
			: undefined,
};

/** Chaining rule of every `chained` event; the table is checked against this at start-up by the tests. */
export const CHAIN_RULES: Partial<Record<ExtensionEventName, Reducer>> = {
	input,
	context,
	context_with_system: contextWithSystem,
	cache_warming_decision: cacheWarming,
	before_provider_request: providerRequest,
	before_agent_start: beforeAgentStart,
	turn_end: boundary,
	agent_before_settle: boundary,
	message_end: messageEnd,
	tool_result: toolResult,
};

const FIRST_WINS: Partial<Record<ExtensionEventName, Reducer>> = { user_bash: userBash, project_trust: projectTrust };

export function reducerFor(name: ExtensionEventName): Reducer {
	const { kind } = EVENT_TABLE[name];
	const special = kind === "chained" ? CHAIN_RULES[name] : kind === "first-wins" ? FIRST_WINS[name] : undefined;
	if (special) return special;
	if (kind === "chained" || kind === "first-wins") throw new Error(`extension event "${name}" has no ${kind} rule`);
	return { notify, cancellable, blocking, aggregate }[kind];
}
