/** Scalars and flow collections for the frontmatter YAML reader (see yaml.ts). */

export class YamlError extends Error {
	override readonly name = "YamlError";
	constructor(
		message: string,
		readonly line: number,
	) {
		super(`YAML line ${line}: ${message}`);
	}
}

const ESCAPES: Record<string, string> = {
	"0": "\0",
	a: "\x07",
	b: "\b",
	t: "\t",
	"\t": "\t",
	n: "\n",
	v: "\v",
	f: "\f",
	r: "\r",
	e: "\x1b",
	" ": " ",
	'"': '"',
	"/": "/",
	"\\": "\\",
	N: "\u0085",
	_: "\u00a0",
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Reads a quoted string starting at `start` (a `"` or `'`); `end` is the index after the closing quote. */
export function parseQuoted(text: string, start: number, no = 0): { value: string; end: number } {
	const quote = text[start];
	let value = "";
	for (let i = start + 1; i < text.length; i++) {
		const c = text[i] as string;
		if (quote === "'") {
			if (c !== "'") value += c;
			else if (text[i + 1] === "'") {
				value += "'";
				i++;
			} else return { value, end: i + 1 };
			continue;
		}
		if (c === '"') return { value, end: i + 1 };
		if (c !== "\\") {
			value += c;
			continue;
		}
		const e = text[i + 1] ?? "";
		const width = HEX_ESCAPES[e];
		if (width !== undefined) {
			const hex = text.slice(i + 2, i + 2 + width);
			if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new YamlError(`bad escape "\\${e}${hex}"`, no);
			value += String.fromCodePoint(Number.parseInt(hex, 16));
			i += 1 + width;
		} else if (ESCAPES[e] !== undefined) {
			value += ESCAPES[e];
			i++;
		} else throw new YamlError(`unknown escape "\\${e}" in a double-quoted string`, no);
	}
	throw new YamlError("unterminated quoted string", no);
}

/** YAML 1.2 core schema for plain scalars: null, booleans, integers, floats; anything else is a string. */
export function resolvePlain(text: string): unknown {
	if (/^(null|Null|NULL|~|)$/.test(text)) return null;
	if (/^(true|True|TRUE)$/.test(text)) return true;
	if (/^(false|False|FALSE)$/.test(text)) return false;
	if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
	if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
	if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
	if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number.parseFloat(text);
	if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
	if (/^\.(nan|NaN|NAN)$/.test(text)) return Number.NaN;
	return text;
}

/** Parses a whole flow collection (`[…]` or `{…}`), allowing only a comment after it. */
export function parseFlow(text: string, no: number): unknown {
	const reader = new FlowReader(text, no);
	const value = reader.node();
	reader.skipSpace();
	const rest = text.slice(reader.pos);
	if (rest !== "" && !rest.startsWith("#")) throw new YamlError(`unexpected text after the collection: ${rest}`, no);
	return value;
}

class FlowReader {
	pos = 0;
	constructor(
		private readonly text: string,
		private readonly no: number,
	) {}

	skipSpace(): void {
		while (/\s/.test(this.text[this.pos] ?? "")) this.pos++;
	}

	node(): unknown {
		this.skipSpace();
		const c = this.text[this.pos];
		if (c === "[") return this.sequence();
		if (c === "{") return this.mapping();
		if (c === '"' || c === "'") {
			const { value, end } = parseQuoted(this.text, this.pos, this.no);
			this.pos = end;
			return value;
		}
		if (c === undefined) throw new YamlError("unterminated flow collection", this.no);
		return resolvePlain(this.plain());
	}

	private plain(): string {
		const start = this.pos;
		while (this.pos < this.text.length) {
			const c = this.text[this.pos] as string;
			if (c === "," || c === "]" || c === "}") break;
			if (c === ":" && /[\s,\]}]/.test(this.text[this.pos + 1] ?? " ")) break;
			this.pos++;
		}
		return this.text.slice(start, this.pos).trim();
	}

	private expect(c: string): boolean {
		this.skipSpace();
		if (this.text[this.pos] !== c) return false;
		this.pos++;
		return true;
	}

	private sequence(): unknown[] {
		this.pos++;
		const out: unknown[] = [];
		while (!this.expect("]")) {
			if (this.pos >= this.text.length) throw new YamlError("unterminated flow sequence", this.no);
			out.push(this.node());
			if (!this.expect(",") && this.text[this.pos] !== "]") {
				throw new YamlError(`expected "," or "]" in a flow sequence`, this.no);
			}
		}
		return out;
	}

	private mapping(): Record<string, unknown> {
		this.pos++;
		const out: Record<string, unknown> = {};
		while (!this.expect("}")) {
			if (this.pos >= this.text.length) throw new YamlError("unterminated flow mapping", this.no);
			const key = String(this.node() ?? "");
			const value = this.expect(":") ? this.node() : null;
			if (Object.hasOwn(out, key)) throw new YamlError(`duplicate key "${key}"`, this.no);
			out[key] = value;
			if (!this.expect(",") && this.text[this.pos] !== "}") {
				throw new YamlError(`expected "," or "}" in a flow mapping`, this.no);
			}
		}
		return out;
	}
}
