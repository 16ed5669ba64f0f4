/**
 * Harness hooks: handlers run in registration order; each sees what earlier handlers changed. A throwing handler is
 * reported (`handler_error`) and skipped, except `before_drive` (fails the pass) and `before_tool` (blocks the call
 * with the error text).
 */
import type { Context } from "../context.ts";
import type {
	AgentHarnessStreamOptions,
	AgentHarnessStreamOptionsPatch,
	HookHandler,
	HookInvocation,
	HookMap,
	HookName,
} from "./types.ts";

type ReportError = (error: Error, hook: string, lane: string, context: Context) => Promise<void>;
type AnyHandler = (event: never, context: Context) => unknown;

function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}

/** Apply a per-request stream-option patch: `undefined` header/metadata values delete keys. */
export function applyStreamOptionsPatch(
	base: AgentHarnessStreamOptions,
	patch: AgentHarnessStreamOptionsPatch,
): AgentHarnessStreamOptions {
	const next: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(patch)) {
		if (key === "headers" || key === "metadata") continue;
		if (value === undefined) delete next[key];
		else next[key] = value;
	}
	for (const key of ["headers", "metadata"] as const) {
		if (!(key in patch)) continue;
		const patched = patch[key];
		if (patched === undefined) {
			delete next[key];
			continue;
		}
		const merged: Record<string, unknown> = { ...((base[key] as Record<string, unknown> | undefined) ?? {}) };
		for (const [name, value] of Object.entries(patched)) {
			if (value === undefined) delete merged[name];
			else merged[name] = value;
		}
		next[key] = merged;
	}
	return next as AgentHarnessStreamOptions;
}

export class HookRegistry {
	private readonly registrations = new Map<HookName, { id?: string; handler: AnyHandler }[]>();
	private closedError: Error | undefined;

	constructor(private readonly report: ReportError) {}

	on<TName extends HookName>(name: TName, handler: HookHandler<TName>, options: { id?: string } = {}): () => void {
		if (this.closedError !== undefined) throw this.closedError;
		const list = this.registrations.get(name) ?? [];
		const registration = { ...(options.id === undefined ? {} : { id: options.id }), handler: handler as AnyHandler };
		list.push(registration);
		this.registrations.set(name, list);
		return () => {
			const index = list.indexOf(registration);
			if (index !== -1) list.splice(index, 1);
		};
	}

	close(error: Error): void {
		this.closedError ??= error;
	}

	/** Run every handler of `name`, folding their results the way that hook defines. */
	async run<TName extends HookName>(
		name: TName,
		event: HookInvocation<TName>,
		context: Context,
	): Promise<HookMap[TName]["result"]> {
		if (this.closedError !== undefined) throw this.closedError;
		return (await this.fold(name, event as Record<string, unknown> & { lane: string }, context)) as never;
	}

	private async fold(name: HookName, event: Record<string, unknown> & { lane: string }, context: Context) {
		const handlers = [...(this.registrations.get(name) ?? [])].map(
			(r) => r.handler as (e: unknown, c: Context) => unknown,
		);
		const call = async (handler: (e: unknown, c: Context) => unknown, input: unknown): Promise<unknown> => {
			try {
				return { ok: true, value: await handler(input, context) };
			} catch (error) {
				const normalized = toError(error);
				await this.report(normalized, name, event.lane, context);
				return { ok: false, error: normalized };
			}
		};
		type Outcome = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; error: Error };
		switch (name) {
			case "before_drive": {
				for (const handler of handlers) {
					const outcome = (await call(handler, event)) as Outcome;
					if (!outcome.ok) throw outcome.error;
				}
				return undefined;
			}
			case "before_run": {
				let prompt = event.prompt as unknown[];
				let injected: unknown[] = [];
				for (const handler of handlers) {
					const outcome = (await call(handler, { ...event, prompt })) as Outcome;
					const messages = outcome.ok ? (outcome.value?.messages as unknown[] | undefined) : undefined;
					if (messages !== undefined) {
						injected = [...injected, ...messages];
						prompt = [...prompt, ...messages];
					}
				}
				return injected.length === 0 ? undefined : { messages: injected };
			}
			case "before_run_end": {
				let followUp: unknown;
				for (const handler of handlers) {
					const outcome = (await call(handler, event)) as Outcome;
					if (outcome.ok && outcome.value?.followUp !== undefined) followUp = outcome.value.followUp;
				}
				return followUp === undefined ? undefined : { followUp };
			}
			case "before_request": {
				const base = event.streamOptions as AgentHarnessStreamOptions;
				let streamOptions = base;
				let patched = false;
				for (const handler of handlers) {
					const outcome = (await call(handler, { ...event, streamOptions })) as Outcome;
					const patch = outcome.ok ? outcome.value?.streamOptions : undefined;
					if (patch !== undefined) {
						streamOptions = applyStreamOptionsPatch(streamOptions, patch as AgentHarnessStreamOptionsPatch);
						patched = true;
					}
				}
				return patched ? { streamOptions } : undefined;
			}
			case "before_tool": {
				let args = event.args;
				let block: unknown;
				for (const handler of handlers) {
					const outcome = (await call(handler, { ...event, args })) as Outcome;
					if (!outcome.ok) {
						block = { reason: outcome.error.message };
						break;
					}
					if (outcome.value?.args !== undefined) args = outcome.value.args;
					if (outcome.value?.block !== undefined) {
						block = outcome.value.block;
						break;
					}
				}
				return { ...(args === event.args ? {} : { args }), ...(block === undefined ? {} : { block }) };
			}
			case "after_tool": {
				const fields = ["content", "details", "isError", "usage"] as const;
				let current: Record<string, unknown> = Object.fromEntries(fields.map((key) => [key, event[key]]));
				const aggregate: Record<string, unknown> = {};
				for (const handler of handlers) {
					const outcome = (await call(handler, { ...event, ...current })) as Outcome;
					if (!outcome.ok || outcome.value === undefined) continue;
					for (const key of [...fields, "terminate"] as const) {
						if (outcome.value[key] !== undefined) aggregate[key] = outcome.value[key];
					}
					current = {
						...current,
						...Object.fromEntries(
							fields.flatMap((k) => (outcome.value?.[k] === undefined ? [] : [[k, outcome.value[k]]])),
						),
					};
				}
				return Object.keys(aggregate).length === 0 ? undefined : aggregate;
			}
			default: {
				// transform_context, before_payload, after_response: each field a handler returns replaces the input.
				const keys: Record<string, string[]> = {
					transform_context: ["messages", "systemPrompt"],
					before_payload: ["payload"],
					after_response: ["message"],
				};
				let current: Record<string, unknown> = { ...event };
				for (const handler of handlers) {
					const outcome = (await call(handler, current)) as Outcome;
					if (!outcome.ok || outcome.value === undefined) continue;
					for (const key of keys[name] ?? []) {
						if (outcome.value[key] !== undefined) current = { ...current, [key]: outcome.value[key] };
					}
				}
				return Object.fromEntries((keys[name] ?? []).map((key) => [key, current[key]]));
			}
		}
	}
}
