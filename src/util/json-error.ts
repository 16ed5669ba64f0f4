/**
 * The message Node's `JSON.parse` (V8, Node ≥ 22) gives for invalid JSON, independent of the engine we run on.
 *
 * pi runs on Node and reports a bad RPC line as `Failed to parse command: <V8 message>`; Bun (JavaScriptCore)
 * words its errors differently, so this module re-scans the text with V8's grammar walk and reproduces its
 * message: the same position (UTF-16 index), the same "(line L column C)" suffix (LF, CR and CRLF each end a
 * line), the same 10-character context window around an unexpected character. It runs only after the native
 * parser failed, so its cost never touches valid input. Iterative, so deep nesting cannot overflow the stack.
 */

/** V8's short-source cut-off: sources up to this length are quoted whole in "Unexpected token" messages. */
const SHORT_SOURCE = 20;
/** Characters of context on each side of the offending character for longer sources. */
const CONTEXT = 10;
/** Whole inputs V8 names directly: what `JSON.parse(undefined)` and friends stringify to. */
const SPECIAL_SOURCES = new Set(["undefined", "NaN", "Infinity", "[object Object]"]);

class JsonSyntaxFailure {
	constructor(
		readonly message: string,
		/** UTF-16 index of the offending character (the end of the text when it ended too early). */
		readonly position: number,
	) {}
}

/**
 * V8's `JSON.parse` error message for `source`, or undefined when `source` is valid JSON.
 */
export function v8JsonParseErrorMessage(source: string): string | undefined {
	return jsonSyntaxError(source)?.message;
}

/** Where `source` stops being JSON: V8's message, and the 1-based line and column of the offending character. */
export function jsonSyntaxError(source: string): { message: string; line: number; column: number } | undefined {
	try {
		scan(source);
		return undefined;
	} catch (error) {
		if (!(error instanceof JsonSyntaxFailure)) throw error;
		return { message: error.message, ...lineAndColumn(source, error.position) };
	}
}

function isDigit(c: number): boolean {
	return c >= 48 && c <= 57;
}

function isHexDigit(c: number): boolean {
	return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isJsonWhitespace(c: number): boolean {
	return c === 32 || c === 9 || c === 10 || c === 13;
}

function lineAndColumn(source: string, pos: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < pos; i++) {
		const c = source.charCodeAt(i);
		if (c === 13 && i + 1 < pos && source.charCodeAt(i + 1) === 10) i++;
		if (c === 10 || c === 13) {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: pos - lineStart + 1 };
}

function location(source: string, pos: number): string {
	const { line, column } = lineAndColumn(source, pos);
	return ` (line ${line} column ${column})`;
}

/** A failure with one of V8's positional messages ("<text> in JSON at position N (line L column C)"). */
function failAt(source: string, text: string, pos: number, where = " in JSON"): never {
	throw new JsonSyntaxFailure(`${text}${where} at position ${pos}${location(source, pos)}`, pos);
}

/** A failure at a character the grammar did not expect there, worded by what kind of token it starts. */
function unexpected(source: string, pos: number): never {
	if (pos >= source.length) throw new JsonSyntaxFailure("Unexpected end of JSON input", source.length);
	const c = source.charCodeAt(pos);
	if (c === 45 || isDigit(c)) failAt(source, "Unexpected number", pos);
	if (c === 34) failAt(source, "Unexpected string", pos);
	if (SPECIAL_SOURCES.has(source)) throw new JsonSyntaxFailure(`"${source}" is not valid JSON`, 0);
	const token = source[pos];
	const length = source.length;
	let quoted: string;
	if (length <= SHORT_SOURCE) quoted = `"${source}"`;
	else if (pos < CONTEXT) quoted = `"${source.slice(0, pos + CONTEXT)}"...`;
	else if (pos < length - CONTEXT) quoted = `..."${source.slice(pos - CONTEXT, pos + CONTEXT)}"...`;
	else quoted = `..."${source.slice(pos - CONTEXT)}"`;
	throw new JsonSyntaxFailure(`Unexpected token '${token}', ${quoted} is not valid JSON`, pos);
}

function skipWhitespace(source: string, pos: number): number {
	while (pos < source.length && isJsonWhitespace(source.charCodeAt(pos))) pos++;
	return pos;
}

/** Scans a string starting at its opening quote; returns the index after the closing quote. */
function scanString(source: string, pos: number): number {
	const length = source.length;
	pos++;
	for (;;) {
		if (pos >= length) failAt(source, "Unterminated string", pos);
		const c = source.charCodeAt(pos);
		if (c === 34) return pos + 1;
		if (c === 92) {
			pos++;
			if (pos >= length) unexpected(source, pos);
			const e = source.charCodeAt(pos);
			if (e === 117) {
				pos++;
				for (let k = 0; k < 4; k++, pos++) {
					if (pos >= length || !isHexDigit(source.charCodeAt(pos))) failAt(source, "Bad Unicode escape", pos);
				}
				continue;
			}
			// " \ / b f n r t
			if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
				pos++;
				continue;
			}
			failAt(source, "Bad escaped character", pos);
		}
		if (c < 0x20) failAt(source, "Bad control character in string literal", pos);
		pos++;
	}
}

function scanDigits(source: string, pos: number): number {
	while (pos < source.length && isDigit(source.charCodeAt(pos))) pos++;
	return pos;
}

function scanNumber(source: string, pos: number): number {
	const length = source.length;
	if (source.charCodeAt(pos) === 45) {
		pos++;
		if (pos >= length || !isDigit(source.charCodeAt(pos))) failAt(source, "No number after minus sign", pos);
	}
	if (source.charCodeAt(pos) === 48) {
		pos++;
		if (pos < length && isDigit(source.charCodeAt(pos))) unexpected(source, pos);
	} else {
		pos = scanDigits(source, pos);
	}
	if (source.charCodeAt(pos) === 46) {
		pos++;
		if (pos >= length || !isDigit(source.charCodeAt(pos))) failAt(source, "Unterminated fractional number", pos);
		pos = scanDigits(source, pos);
	}
	const e = source.charCodeAt(pos);
	if (e === 101 || e === 69) {
		pos++;
		const sign = source.charCodeAt(pos);
		if (sign === 43 || sign === 45) pos++;
		if (pos >= length || !isDigit(source.charCodeAt(pos))) failAt(source, "Exponent part is missing a number", pos);
		pos = scanDigits(source, pos);
	}
	return pos;
}

function scanLiteral(source: string, pos: number, word: string): number {
	for (let k = 1; k < word.length; k++) {
		if (pos + k >= source.length) unexpected(source, source.length);
		if (source.charCodeAt(pos + k) !== word.charCodeAt(k)) unexpected(source, pos + k);
	}
	return pos + word.length;
}

const OBJECT = 0;
const ARRAY = 1;

/** Walks `source` with V8's grammar; throws a `JsonSyntaxFailure` at the first error. */
function scan(source: string): void {
	const stack: number[] = [];
	let pos = 0;
	for (;;) {
		// A value starts here.
		pos = skipWhitespace(source, pos);
		const c = pos < source.length ? source.charCodeAt(pos) : -1;
		if (c === 34) pos = scanString(source, pos);
		else if (c === 45 || isDigit(c)) pos = scanNumber(source, pos);
		else if (c === 116) pos = scanLiteral(source, pos, "true");
		else if (c === 102) pos = scanLiteral(source, pos, "false");
		else if (c === 110) pos = scanLiteral(source, pos, "null");
		else if (c === 123) {
			pos = skipWhitespace(source, pos + 1);
			if (source.charCodeAt(pos) !== 125) {
				if (source.charCodeAt(pos) !== 34) failAt(source, "Expected property name or '}'", pos);
				pos = propertyColon(source, scanString(source, pos));
				stack.push(OBJECT);
				continue;
			}
			pos++;
		} else if (c === 91) {
			pos = skipWhitespace(source, pos + 1);
			if (source.charCodeAt(pos) !== 93) {
				stack.push(ARRAY);
				continue;
			}
			pos++;
		} else unexpected(source, pos);

		// A value ended: close containers or move to the next element.
		let nextValue = false;
		while (!nextValue && stack.length > 0) {
			pos = skipWhitespace(source, pos);
			const next = source.charCodeAt(pos);
			if (stack[stack.length - 1] === OBJECT) {
				if (next === 44) {
					pos = skipWhitespace(source, pos + 1);
					if (source.charCodeAt(pos) !== 34) failAt(source, "Expected double-quoted property name", pos);
					pos = propertyColon(source, scanString(source, pos));
					nextValue = true;
				} else if (next === 125) {
					stack.pop();
					pos++;
				} else failAt(source, "Expected ',' or '}' after property value", pos);
			} else if (next === 44) {
				pos++;
				nextValue = true;
			} else if (next === 93) {
				stack.pop();
				pos++;
			} else failAt(source, "Expected ',' or ']' after array element", pos);
		}
		if (nextValue) continue;
		pos = skipWhitespace(source, pos);
		if (pos < source.length) failAt(source, "Unexpected non-whitespace character after JSON", pos, "");
		return;
	}
}

/** After a property name: expects the colon; returns the index after it. */
function propertyColon(source: string, pos: number): number {
	pos = skipWhitespace(source, pos);
	if (source.charCodeAt(pos) !== 58) failAt(source, "Expected ':' after property name", pos);
	return pos + 1;
}

/** What the parser said, in a few words ("unexpected ','", "the file ends too early", …). */
function shortReason(message: string): string {
	const token = /^Unexpected token '(.+?)'/.exec(message);
	if (token) return `unexpected '${token[1]}'`;
	if (message.startsWith("Unexpected end of JSON input")) return "the file ends too early";
	const text = message.replace(/ (?:in|after) JSON at position .*$/, "");
	return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * "invalid JSON at line L, column C (<reason>)" for a file's text that does not parse (a leading BOM is skipped),
 * or undefined when it does.
 */
export function describeInvalidJson(text: string): string | undefined {
	const found = jsonSyntaxError(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	return found && `invalid JSON at line ${found.line}, column ${found.column} (${shortReason(found.message)})`;
}
