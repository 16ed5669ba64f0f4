/**
 * Tool-call arguments arrive as JSON text in pieces. `parseStreamingJson` gives a best-effort object for a prefix
 * (for live display): it closes open strings, arrays and objects and drops a dangling key or partial literal.
 * `parseToolArguments` is the strict parse of the complete text.
 */

const JSON_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);
const CONTROL_ESCAPES: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Fixes what models often get wrong inside JSON strings: raw control characters are escaped, and a backslash
 * before a character JSON does not allow to be escaped (or at the very end) is doubled. Text outside strings is
 * left alone.
 */
export function repairJson(json: string): string {
	let out = "";
	let inString = false;
	for (let i = 0; i < json.length; i++) {
		const c = json[i] as string;
		if (!inString) {
			out += c;
			if (c === '"') inString = true;
			continue;
		}
		if (c === '"') {
			out += c;
			inString = false;
		} else if (c === "\\") {
			const next = json[i + 1];
			if (next === "u" && /^[0-9a-fA-F]{4}$/.test(json.slice(i + 2, i + 6))) {
				out += json.slice(i, i + 6);
				i += 5;
			} else if (next !== undefined && JSON_ESCAPES.has(next)) {
				out += c + next;
				i++;
			} else {
				out += "\\\\";
			}
		} else if (c.charCodeAt(0) <= 0x1f) {
			out += CONTROL_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
		} else {
			out += c;
		}
	}
	return out;
}

/** `JSON.parse`, retried once on the `repairJson` text when that differs; throws the first error otherwise. */
export function parseJsonWithRepair<T = any>(json: string): T {
	try {
		return JSON.parse(json) as T;
	} catch (error) {
		const repaired = repairJson(json);
		if (repaired !== json) return JSON.parse(repaired) as T;
		throw error;
	}
}

/**
 * A best-effort value for JSON text that may be cut off (tool-call arguments while they stream): the complete
 * (or repaired) parse when there is one, else the value of the longest prefix that can be closed, else `{}`.
 */
export function parseStreamingJson<T = any>(text: string | undefined): T {
	if (!text || text.trim() === "") return {} as T;
	try {
		return parseJsonWithRepair<T>(text);
	} catch {
		// Incomplete prefix: close it below.
	}
	return (parsePrefix(text.trim()) ?? parsePrefix(repairJson(text.trim())) ?? {}) as T;
}

function parsePrefix(text: string): unknown {
	const repaired = repair(text);
	for (let cut = repaired.length; cut > 0; ) {
		try {
			const value = JSON.parse(repaired.slice(0, cut) + closers(repaired.slice(0, cut)));
			return value ?? undefined;
		} catch {
			// Drop the last token and try again.
			cut = lastTokenBoundary(repaired, cut);
		}
	}
	return undefined;
}

const invalidArguments = new WeakMap<object, string>();

/** Marks a streamed tool call whose argument text was not a JSON object (`problem` says why). */
export function markInvalidToolArguments(call: object, problem: string): void {
	invalidArguments.set(call, problem);
}

/**
 * Why the arguments of this tool call (as it came from the stream) could not be read, or undefined when they were
 * fine. Such a call must not run: its arguments are a guess.
 */
export function invalidToolArguments(call: object): string | undefined {
	return invalidArguments.get(call);
}

export type ToolArgumentsParse = { ok: true; value: Record<string, any> } | { ok: false; error: string };

export function parseToolArguments(text: string): ToolArgumentsParse {
	if (text.trim() === "") return { ok: true, value: {} };
	try {
		const value = JSON.parse(text);
		if (!isRecord(value)) return { ok: false, error: "arguments must be a JSON object" };
		return { ok: true, value };
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	}
}

function isRecord(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Closes an unterminated string (dropping a half escape). */
function repair(text: string): string {
	let inString = false;
	let escaped = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (escaped) escaped = false;
		else if (c === "\\") escaped = inString;
		else if (c === '"') inString = !inString;
	}
	if (!inString) return text;
	let body = escaped ? text.slice(0, -1) : text;
	const unicode = /\\u[0-9a-fA-F]{0,3}$/.exec(body);
	if (unicode) body = body.slice(0, unicode.index);
	return `${body}"`;
}

/** The brackets that close what is open at the end of `text`. */
function closers(text: string): string {
	const stack: string[] = [];
	let inString = false;
	let escaped = false;
	for (const c of text) {
		if (escaped) {
			escaped = false;
			continue;
		}
		if (inString) {
			if (c === "\\") escaped = true;
			else if (c === '"') inString = false;
			continue;
		}
		if (c === '"') inString = true;
		else if (c === "{") stack.push("}");
		else if (c === "[") stack.push("]");
		else if (c === "}" || c === "]") stack.pop();
	}
	return stack.reverse().join("");
}

/** A shorter prefix to try: cut back to before the last `,` or `:` outside strings, or by one character. */
function lastTokenBoundary(text: string, cut: number): number {
	let inString = false;
	let escaped = false;
	let boundary = -1;
	for (let i = 0; i < cut; i++) {
		const c = text[i];
		if (escaped) {
			escaped = false;
			continue;
		}
		if (c === "\\" && inString) escaped = true;
		else if (c === '"') inString = !inString;
		else if (!inString && (c === "," || c === "{" || c === "[")) boundary = c === "," ? i : i + 1;
	}
	return boundary >= 0 && boundary < cut ? boundary : cut - 1;
}
