/**
 * Normalising, caching and comparing the scripted RPC sessions of conformance-rpc.ts.
 *
 * Normalised away (they legitimately differ between two runs or two programs): request ids, the temp HOME, working
 * folder and mock URL, the examples folder, the session file name and id, UUIDs, ISO dates, object key order, and
 * the UI requests that show a spinner frame (how many a timer shows depends on the machine's speed). Dropped: pi's built-in
 * `/llama` command (`<inline:llama.cpp>`; the llama.cpp support is another issue's item), and the JavaScript
 * engines' own TypeError wording inside error texts (V8 and JavaScriptCore word the same fault differently).
 * What remains must be identical: state, commands, models, UI requests, extension errors and offered tools.
 *
 * pi's raw session is cached under the git-ignored `.cache/conformance-rpc/`, keyed by pi's version, the harness
 * version and a hash of the unit's files, so later runs start only our binary (normalising happens on reading, so
 * a change here needs no new pi run).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RawSession } from "./conformance-rpc.ts";

/** Bump when the scripted session changes: every cached pi session is then recorded again. */
export const HARNESS_VERSION = 1;

export interface NormalisedSession {
	state: unknown;
	commands: unknown;
	models: unknown;
	prompt: unknown;
	stateAfter: unknown;
	ui: unknown[];
	errors: unknown[];
	tools: string[] | null;
	ran: boolean;
	strayStdout: string[];
}

/** Compared fields, in the order differences are listed. */
export const FIELDS = [
	"state",
	"commands",
	"models",
	"prompt",
	"stateAfter",
	"ui",
	"errors",
	"tools",
	"ran",
	"strayStdout",
] as const;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_DATE = /\d{4}-\d\d-\d\dT\d\d[:-]\d\d[:-]\d\d(?:[.-]\d+)?Z?/g;
/** Engine-specific wording of a TypeError about a missing value (V8 / JavaScriptCore). */
const ENGINE_TYPE_ERROR =
	/Cannot read properties of (?:undefined|null) \(reading '[^']*'\)|undefined is not an object \(evaluating '[^']*'\)|null is not an object \(evaluating '[^']*'\)|\S+ is not a function(?: \([^)]*\))?/g;

function replaceAll(text: string, from: string, to: string): string {
	return from ? text.split(from).join(to) : text;
}

function normaliseText(text: string, places: [string, string][]): string {
	let out = text;
	for (const [from, to] of places) out = replaceAll(out, from, to);
	return out.replace(UUID, "<uuid>").replace(ISO_DATE, "<date>").replace(ENGINE_TYPE_ERROR, "<engine TypeError>");
}

function walk(value: unknown, places: [string, string][]): unknown {
	if (typeof value === "string") return normaliseText(value, places);
	if (Array.isArray(value)) return value.map((item) => walk(item, places));
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = walk(item, places);
		return out;
	}
	return value;
}

/** A response's payload: `data` when it succeeded, the error otherwise; undefined when no response came. */
function payload(response: unknown): unknown {
	if (!response || typeof response !== "object") return "<no response>";
	const r = response as { success?: boolean; data?: unknown; error?: unknown };
	return r.success ? (r.data ?? null) : { error: r.error };
}

function stateOf(response: unknown): unknown {
	const data = payload(response);
	if (!data || typeof data !== "object" || "error" in data) return data;
	const state = { ...(data as Record<string, unknown>) };
	if (typeof state.sessionFile === "string") state.sessionFile = "<session-file>";
	if (typeof state.sessionId === "string") state.sessionId = "<session-id>";
	return state;
}

function commandsOf(response: unknown): unknown {
	const data = payload(response) as { commands?: { sourceInfo?: { path?: string } }[] } | string;
	if (!data || typeof data !== "object" || !Array.isArray(data.commands)) return data;
	return data.commands.filter((c) => c.sourceInfo?.path !== "<inline:llama.cpp>");
}

/** Braille spinner glyphs: how many frames a timer shows (none, on a fast run) depends on the machine's speed. */
const SPINNER_FRAME = /[\u2801-\u28ff]/;

/** Requests that show a spinner frame are left out. */
function withoutFrames(requests: unknown[]): unknown[] {
	return requests.filter((request) => !SPINNER_FRAME.test(JSON.stringify(request)));
}

/** JSON with object keys sorted: key order carries no meaning. */
export function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, item) =>
		item && typeof item === "object" && !Array.isArray(item)
			? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: item,
	);
}

/** `examplesDir` is the examples/extensions folder of the unit's release. */
export function normalise(raw: RawSession, examplesDir: string): NormalisedSession {
	const places: [string, string][] = [
		[examplesDir, "<examples>"],
		// Module URLs name the real path; the release cache may sit behind a symlink on a developer's machine.
		[realpathSync(examplesDir), "<examples>"],
		// Cached results may have been recorded from another checkout of the release cache.
		...(raw.places.examples ? [[raw.places.examples, "<examples>"] as [string, string]] : []),
		[raw.places.home, "<home>"],
		[raw.places.cwd, "<cwd>"],
		[raw.places.mock, "<mock>"],
	];
	const n = (value: unknown) => walk(value, places);
	return {
		state: n(stateOf(raw.responses.state)),
		commands: n(commandsOf(raw.responses.commands)),
		models: n(payload(raw.responses.models)),
		prompt: n(payload(raw.responses.prompt)),
		stateAfter: n(stateOf(raw.responses.stateAfter)),
		ui: withoutFrames(raw.ui.map(({ id: _id, ...request }) => n(request))),
		// `location` (where the handler threw) is ours only; pi's records have no such field.
		errors: raw.errors.map((error) => {
			const { location: _location, ...rest } = error as Record<string, unknown>;
			return n(rest);
		}),
		tools: raw.tools ?? null,
		ran: raw.ran,
		strayStdout: raw.strayStdout.map((line) => normaliseText(line, places)),
	};
}

/** Short differences between pi's session and ours, one line per differing field. */
export function differences(pi: NormalisedSession, ours: NormalisedSession): string[] {
	const out: string[] = [];
	for (const field of FIELDS) {
		const a = canonical(pi[field]);
		const b = canonical(ours[field]);
		if (a !== b) out.push(`${field}: ${shortDiff(pi[field], ours[field])}`);
	}
	return out;
}

const LIMIT = 300;
const clip = (text: string) => (text.length > LIMIT ? `${text.slice(0, LIMIT)}…` : text);

/** For lists: the items only one side has; otherwise both values, clipped. */
function shortDiff(pi: unknown, ours: unknown): string {
	if (Array.isArray(pi) && Array.isArray(ours)) {
		const a = pi.map(canonical);
		const b = ours.map(canonical);
		const onlyPi = a.filter((x) => !b.includes(x));
		const onlyOurs = b.filter((x) => !a.includes(x));
		if (onlyPi.length === 0 && onlyOurs.length === 0) return clip(`pi [${a.join(",")}] | ours [${b.join(",")}]`);
		return clip(`pi only ${onlyPi.join(", ") || "-"} | ours only ${onlyOurs.join(", ") || "-"}`);
	}
	if (pi && ours && typeof pi === "object" && typeof ours === "object" && !Array.isArray(pi)) {
		const keys = [...new Set([...Object.keys(pi), ...Object.keys(ours)])];
		const p = pi as Record<string, unknown>;
		const o = ours as Record<string, unknown>;
		const changed = keys.filter((k) => canonical(p[k]) !== canonical(o[k]));
		return clip(changed.map((k) => `${k}: pi ${JSON.stringify(p[k])} ours ${JSON.stringify(o[k])}`).join("; "));
	}
	return clip(`pi ${JSON.stringify(pi)} | ours ${JSON.stringify(ours)}`);
}

/**
 * Whether the session is usable as a reference: every step answered and the prompt's run over when the script
 * ended (a pi too slow for the machine's load is run again rather than cached).
 */
export function complete(session: NormalisedSession): boolean {
	const steps = ["state", "commands", "models", "prompt", "stateAfter"] as const;
	if (steps.some((step) => session[step] === "<no response>")) return false;
	return (session.stateAfter as { isStreaming?: boolean } | null)?.isStreaming !== true;
}

/**
 * A difference every unit shows for a reason another item owns. `reconcile` returns ours with exactly that
 * difference taken back to pi's value, or undefined when it is not there (then the entry can go).
 */
export interface GlobalDifference {
	reason: string;
	reconcile(pi: NormalisedSession, ours: NormalisedSession): NormalisedSession | undefined;
}

export const KNOWN_GLOBAL_DIFFERENCES: GlobalDifference[] = [];

// ---- cache of pi's results -------------------------------------------------------------------------------------

const CACHE_ROOT = join(import.meta.dir, "..", "..", ".cache", "conformance-rpc");

/** Hash of every file of a unit (a file, or a folder's files outside node_modules), with relative names. */
export function unitHash(path: string): string {
	const hash = createHash("sha256");
	const visit = (abs: string, rel: string) => {
		if (statSync(abs).isDirectory()) {
			for (const name of readdirSync(abs).sort()) {
				if (name !== "node_modules") visit(join(abs, name), `${rel}/${name}`);
			}
		} else hash.update(`${rel}\0`).update(readFileSync(abs)).update("\0");
	};
	visit(path, ".");
	return hash.digest("hex").slice(0, 16);
}

function cacheFile(release: string, unit: string): string {
	return join(CACHE_ROOT, release.replace(/\//g, "__"), `${unit}.json`);
}

export function cacheKey(piVersion: string, unitPath: string): string {
	return `pi ${piVersion} harness ${HARNESS_VERSION} unit ${unitHash(unitPath)}`;
}

export function readCached(release: string, unit: string, key: string): RawSession | undefined {
	const file = cacheFile(release, unit);
	if (!existsSync(file)) return undefined;
	try {
		const stored = JSON.parse(readFileSync(file, "utf8")) as { key?: string; session?: RawSession };
		return stored.key === key ? stored.session : undefined;
	} catch {
		// A torn or foreign file: run pi again and overwrite it.
		return undefined;
	}
}

export function writeCached(release: string, unit: string, key: string, session: RawSession): void {
	const file = cacheFile(release, unit);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify({ key, session }, null, 1)}\n`);
}
