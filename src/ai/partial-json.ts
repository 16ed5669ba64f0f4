/**
 * Tool-call arguments arrive as JSON text in pieces. `parseStreamingJson` gives a best-effort object for a prefix
 * (for live display): it closes open strings, arrays and objects and drops a dangling key or partial literal.
 * `parseToolArguments` is the strict parse of the complete text.
 */

export function parseStreamingJson(text: string): Record<string, any> {
	const trimmed = text.trim();
	if (trimmed === "") return {};
	try {
		const value = JSON.parse(trimmed);
		return isRecord(value) ? value : {};
	} catch {
		// Incomplete prefix: repair below.
	}
	const repaired = repair(trimmed);
	for (let cut = repaired.length; cut > 0; ) {
		try {
			const value = JSON.parse(repaired.slice(0, cut) + closers(repaired.slice(0, cut)));
			return isRecord(value) ? value : {};
		} catch {
			// Drop the last token and try again.
			cut = lastTokenBoundary(repaired, cut);
		}
	}
	return {};
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
