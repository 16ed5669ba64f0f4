/**
 * pi-telemetry's contract as pi-agent-core re-exports it: callback-scoped spans (`startSpan(options, fn)` settles
 * the span when `fn` settles), a shared no-op context, an in-memory recorder, and typed span starters. Recording
 * is passive: it never throws into, and never changes the outcome of, the traced work.
 */
import { type Context, createContextKey, withContextValue } from "./context.ts";

export type AttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];
export interface SpanAttributes {
	[name: string]: AttributeValue | undefined;
}
export interface SpanOptions {
	name: string;
	attributes?: SpanAttributes;
}
export type SpanStatus = { status: "ok" } | { status: "error"; error?: { name: string; message: string } };
export interface TelemetryContext {
	startSpan<T>(options: SpanOptions, callback: (span: TelemetrySpan) => T | Promise<T>): Promise<T>;
}
export interface TelemetrySpan extends TelemetryContext {
	addEvent(name: string, attributes?: SpanAttributes): void;
	setAttributes(attributes: SpanAttributes): void;
	setStatus(status: SpanStatus): void;
}

function runCallback<T>(callback: () => T | Promise<T>): Promise<T> {
	try {
		return Promise.resolve(callback());
	} catch (error) {
		return Promise.reject(error);
	}
}

const noopSpan: TelemetrySpan = Object.freeze({
	startSpan: <T>(_options: SpanOptions, callback: (span: TelemetrySpan) => T | Promise<T>) =>
		runCallback(() => callback(noopSpan)),
	addEvent: () => {},
	setAttributes: () => {},
	setStatus: () => {},
});

/** The telemetry context used when none is given: runs callbacks, records nothing. */
export const NOOP_TELEMETRY_CONTEXT: TelemetrySpan = noopSpan;

export interface RecordedTelemetryEvent {
	readonly name: string;
	readonly attributes: Readonly<SpanAttributes>;
}
export interface RecordedTelemetrySpan {
	readonly id: number;
	readonly parentId: number | null;
	readonly name: string;
	readonly attributes: Readonly<SpanAttributes>;
	readonly events: readonly RecordedTelemetryEvent[];
	readonly status: SpanStatus;
	readonly settled: boolean;
	readonly endSequence?: number;
}

interface LiveSpan {
	id: number;
	parentId: number | null;
	name: string;
	attributes: SpanAttributes;
	events: { name: string; attributes: SpanAttributes }[];
	status: SpanStatus;
	statusSet: boolean;
	settled: boolean;
	endSequence?: number;
}

interface Recorder {
	spans: LiveSpan[];
	nextId: number;
	nextEnd: number;
}

function cloneAttributes(source: SpanAttributes | undefined, into: SpanAttributes = {}): SpanAttributes {
	if (!source) return into;
	for (const [key, value] of Object.entries(source)) {
		if (value !== undefined) into[key] = Array.isArray(value) ? [...value] : value;
	}
	return into;
}

function cloneStatus(status: SpanStatus): SpanStatus {
	if (status.status === "ok") return { status: "ok" };
	return status.error
		? { status: "error", error: { name: status.error.name, message: status.error.message } }
		: { status: "error" };
}

function failureStatus(error: unknown): SpanStatus {
	try {
		if (error instanceof Error) return { status: "error", error: { name: error.name, message: error.message } };
	} catch {
		// inspecting a hostile error must not fail the traced work
	}
	return { status: "error" };
}

function passive(action: () => void): void {
	try {
		action();
	} catch {
		// recording is passive: a bad payload is dropped
	}
}

function recordSpan<T>(
	recorder: Recorder,
	parent: LiveSpan | undefined,
	options: SpanOptions,
	callback: (span: TelemetrySpan) => T | Promise<T>,
): Promise<T> {
	if (parent?.settled) return NOOP_TELEMETRY_CONTEXT.startSpan(options, callback);
	let live: LiveSpan;
	try {
		live = {
			id: recorder.nextId++,
			parentId: parent?.id ?? null,
			name: options.name,
			attributes: cloneAttributes(options.attributes),
			events: [],
			status: { status: "ok" },
			statusSet: false,
			settled: false,
		};
		recorder.spans.push(live);
	} catch {
		return NOOP_TELEMETRY_CONTEXT.startSpan(options, callback);
	}
	const settle = (failed: boolean, error?: unknown) => {
		if (live.settled) return;
		if (failed && !live.statusSet) live.status = failureStatus(error);
		live.settled = true;
		live.endSequence = recorder.nextEnd++;
	};
	const span: TelemetrySpan = {
		startSpan: (childOptions, childCallback) => recordSpan(recorder, live, childOptions, childCallback),
		addEvent(name, attributes) {
			if (!live.settled) passive(() => live.events.push({ name, attributes: cloneAttributes(attributes) }));
		},
		setAttributes(attributes) {
			if (!live.settled)
				passive(() => {
					live.attributes = cloneAttributes(attributes, cloneAttributes(live.attributes));
				});
		},
		setStatus(status) {
			if (live.settled) return;
			passive(() => {
				live.status = cloneStatus(status);
				live.statusSet = true;
			});
		},
	};
	return runCallback(() => callback(span)).then(
		(value) => {
			settle(false);
			return value;
		},
		(error: unknown) => {
			settle(true, error);
			throw error;
		},
	);
}

/** Records spans in memory (a reference backend and a test helper); one instance per recording scope. */
export class InMemoryTelemetryContext implements TelemetryContext {
	private readonly recorder: Recorder = { spans: [], nextId: 1, nextEnd: 1 };

	startSpan<T>(options: SpanOptions, callback: (span: TelemetrySpan) => T | Promise<T>): Promise<T> {
		return recordSpan(this.recorder, undefined, options, callback);
	}

	/** Detached copies of every span, in start order. */
	getSpans(): readonly RecordedTelemetrySpan[] {
		return this.recorder.spans.map((span) => ({
			id: span.id,
			parentId: span.parentId,
			name: span.name,
			attributes: cloneAttributes(span.attributes),
			events: span.events.map((event) => ({ name: event.name, attributes: cloneAttributes(event.attributes) })),
			status: cloneStatus(span.status),
			settled: span.settled,
			...(span.endSequence === undefined ? {} : { endSequence: span.endSequence }),
		}));
	}
}

/** Identity helper that keeps a schema literal's type. */
export function defineTelemetrySchema<const T>(schema: T): T {
	return schema;
}

export type TypedSpanStarter<_Schemas = unknown> = <R>(
	name: string,
	attributes: SpanAttributes,
	callback: (span: TelemetrySpan, startChildSpan: TypedSpanStarter<_Schemas>) => R | Promise<R>,
) => Promise<R>;

function bindStarter<S>(parent: TelemetryContext): TypedSpanStarter<S> {
	return (name, attributes, callback) =>
		parent.startSpan({ name, attributes }, (span) => callback(span, bindStarter<S>(span)));
}

/** A `(name, attributes, callback)` span starter bound to `telemetryContext`; schemas only type the names. */
export function createTypedSpanStarter<const S>(telemetryContext: TelemetryContext, _schemas: S): TypedSpanStarter<S> {
	return bindStarter<S>(telemetryContext);
}

const TELEMETRY_KEY = createContextKey<TelemetryContext>("pi.telemetryContext");

/** The telemetry parent a context carries, or the no-op one. */
export function getTelemetryContext(context: Context): TelemetryContext {
	return context.value(TELEMETRY_KEY) ?? NOOP_TELEMETRY_CONTEXT;
}

/** A child context whose spans become children of `telemetryContext`. */
export function withTelemetryContext(telemetryContext: TelemetryContext, context: Context): Context {
	return withContextValue(TELEMETRY_KEY, telemetryContext, context);
}

/** Start a span under the context's telemetry parent; the callback gets the span and a context carrying it. */
export function startContextSpan<R>(
	name: string,
	attributes: SpanAttributes,
	callback: (span: TelemetrySpan, context: Context) => R | Promise<R>,
	context: Context,
): Promise<R> {
	return getTelemetryContext(context).startSpan({ name, attributes }, (span) =>
		callback(span, withTelemetryContext(span, context)),
	);
}

/** Start an AI-request span (`pi.ai.*` vocabulary) under the context's telemetry parent. */
export const startAiSpan = startContextSpan;
/** Start a harness span (`pi.harness.*` vocabulary) under the context's telemetry parent. */
export const startHarnessSpan = startContextSpan;
