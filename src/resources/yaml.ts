/**
 * A small YAML reader for Markdown frontmatter. It covers what skill and prompt headers use: block mappings and
 * sequences (nested by indentation), plain scalars (also over several lines), single- and double-quoted strings,
 * `|` and `>` block scalars with `-`/`+` chomping, flow `[…]` and `{…}` collections, comments, and the YAML 1.2 core
 * scalars (null, booleans, integers, floats). Anchors, aliases, tags and multiple documents are not supported.
 * Malformed input throws a `YamlError` naming the line, as a full YAML parser would (duplicate keys included).
 */
import { parseFlow, parseQuoted, resolvePlain, YamlError } from "./yaml-scalars.ts";

export { YamlError };

interface Line {
	no: number;
	indent: number;
	text: string;
}

const isBlank = (line: Line) => line.text === "" || line.text.startsWith("#");
const isSeqItem = (text: string) => text === "-" || text.startsWith("- ");

/** Position of the `:` that ends a mapping key on this line, or -1 when the line is not `key: value`. */
function keyColon(text: string): number {
	if (text.startsWith('"') || text.startsWith("'")) {
		const { end } = parseQuoted(text, 0);
		const after = text.slice(end).trimStart();
		return after.startsWith(":") ? text.length - after.length : -1;
	}
	if (/^[[{&*!|>%@`#]/.test(text) || isSeqItem(text)) return -1;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === "#" && i > 0 && /\s/.test(text[i - 1] as string)) return -1;
		if (text[i] === ":" && (i + 1 === text.length || /\s/.test(text[i + 1] as string))) return i;
	}
	return -1;
}

/** Removes a trailing ` # comment` from plain text. */
function stripComment(text: string): string {
	const at = text.search(/(^|\s)#/);
	return (at === -1 ? text : text.slice(0, at)).trimEnd();
}

class Parser {
	private i = 0;
	constructor(private readonly lines: Line[]) {}

	private peek(): Line | undefined {
		while (this.i < this.lines.length && isBlank(this.lines[this.i] as Line)) this.i++;
		return this.lines[this.i];
	}

	document(): unknown {
		const first = this.peek();
		if (!first) return null;
		if (first.indent !== 0) throw new YamlError("unexpected indentation", first.no);
		const value = this.node(0);
		const rest = this.peek();
		if (rest) throw new YamlError("unexpected content (check the indentation)", rest.no);
		return value;
	}

	/** A block node whose lines are indented by exactly the first line's indent (at least `min`). */
	private node(min: number): unknown {
		const line = this.peek();
		if (!line || line.indent < min) return null;
		if (isSeqItem(line.text)) return this.sequence(line.indent);
		if (keyColon(line.text) !== -1) return this.mapping(line.indent);
		this.i++;
		return this.inlineValue(line.text, line.no, line.indent - 1);
	}

	private mapping(indent: number): Record<string, unknown> {
		const out: Record<string, unknown> = {};
		for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
			if (line.indent > indent) throw new YamlError("unexpected indentation", line.no);
			const colon = keyColon(line.text);
			if (colon === -1) throw new YamlError(`expected "key: value", got "${line.text}"`, line.no);
			const rawKey = line.text.slice(0, colon).trim();
			const key = rawKey.startsWith('"') || rawKey.startsWith("'") ? parseQuoted(rawKey, 0).value : rawKey;
			if (Object.hasOwn(out, key)) throw new YamlError(`duplicate key "${key}"`, line.no);
			this.i++;
			out[key] = this.valueAfterIndicator(line.text.slice(colon + 1).trim(), line.no, indent, true);
		}
		return out;
	}

	private sequence(indent: number): unknown[] {
		const out: unknown[] = [];
		for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
			if (line.indent > indent) throw new YamlError("unexpected indentation", line.no);
			if (!isSeqItem(line.text)) break;
			const rest = line.text.slice(1).trimStart();
			const column = indent + (line.text.length - rest.length);
			if (rest !== "" && !rest.startsWith("#") && (isSeqItem(rest) || keyColon(rest) !== -1)) {
				// `- key: value` or `- - x`: the item is a block node starting at the column after the dash.
				this.lines[this.i] = { no: line.no, indent: column, text: rest };
				out.push(this.node(column));
			} else {
				this.i++;
				out.push(this.valueAfterIndicator(rest, line.no, indent, false));
			}
		}
		return out;
	}

	/** The value after `key:` or `- `; `parent` is the indent of the line holding the indicator. */
	private valueAfterIndicator(rest: string, no: number, parent: number, inMapping: boolean): unknown {
		if (rest === "" || rest.startsWith("#")) {
			const next = this.peek();
			if (!next) return null;
			if (next.indent > parent) return this.node(parent + 1);
			// A sequence may sit at its key's own indent (`key:\n- a`).
			if (inMapping && next.indent === parent && isSeqItem(next.text)) return this.sequence(parent);
			return null;
		}
		return this.inlineValue(rest, no, parent);
	}

	/** A scalar or flow collection starting on line `no`, continuing on lines indented past `parent`. */
	private inlineValue(text: string, no: number, parent: number): unknown {
		const head = text[0];
		if (head === "|" || head === ">") return this.blockScalar(text, no, parent);
		if (head === "&" || head === "*" || head === "!") {
			throw new YamlError("anchors, aliases and tags are not supported", no);
		}
		const more = () => this.continuation(parent);
		if (head === "[" || head === "{") return this.withMore(text, more, (all) => parseFlow(all, no));
		if (head === '"' || head === "'") return this.withMore(text, more, (all) => parseQuotedLine(all, no));
		const parts = [stripComment(text)];
		for (const extra of more()) parts.push(extra === "" ? "\n" : stripComment(extra));
		const value = parts.join(" ").replace(/ ?\n ?/g, "\n");
		if (/:\s/.test(value) || value.endsWith(":")) {
			throw new YamlError(`a plain value may not contain ": " (put the value in quotes): ${value}`, no);
		}
		return resolvePlain(value);
	}

	/** Tries `parse` on the text, adding continuation lines while it reports an unterminated value. */
	private withMore(text: string, more: () => string[], parse: (all: string) => unknown): unknown {
		try {
			return parse(text);
		} catch (first) {
			const extra = more();
			if (extra.length === 0) throw first;
			return parse([text, ...extra].join(" "));
		}
	}

	/** Following lines indented past `parent` (blank ones as ""), consumed. */
	private continuation(parent: number): string[] {
		const out: string[] = [];
		let j = this.i;
		const taken: string[] = [];
		while (j < this.lines.length) {
			const line = this.lines[j] as Line;
			if (line.text === "") {
				taken.push("");
				j++;
				continue;
			}
			if (line.indent <= parent || line.text.startsWith("#")) break;
			out.push(...taken.splice(0), line.text);
			j++;
			this.i = j;
		}
		return out;
	}

	private blockScalar(header: string, no: number, parent: number): string {
		const match = /^([|>])([+-]?)([1-9]?)([+-]?)\s*(#.*)?$/.exec(header);
		if (!match) throw new YamlError(`bad block scalar header "${header}"`, no);
		const folded = match[1] === ">";
		const chomp = match[2] || match[4];
		const body: Line[] = [];
		while (this.i < this.lines.length) {
			const line = this.lines[this.i] as Line;
			if (line.text !== "" && line.indent <= parent) break;
			body.push(line);
			this.i++;
		}
		const firstText = body.find((l) => l.text !== "");
		const indent = match[3] ? parent + 1 + Number(match[3]) - 1 : (firstText?.indent ?? parent + 1);
		const rows = body.map((l) => (l.text === "" ? "" : " ".repeat(l.indent - indent) + l.text));
		let text = folded ? foldLines(rows) : rows.join("\n");
		const trailing = /\n*$/.exec(`${text}\n`)?.[0] ?? "\n";
		text = text.replace(/\n+$/, "");
		if (chomp === "-" || text === "") return text;
		return chomp === "+" ? text + trailing : `${text}\n`;
	}
}

function parseQuotedLine(text: string, no: number): string {
	const { value, end } = parseQuoted(text, 0, no);
	const after = stripComment(text.slice(end).trim());
	if (after !== "") throw new YamlError(`unexpected text after the quoted value: ${after}`, no);
	return value;
}

/** `>` folding: single line breaks between text lines become spaces; blank and more-indented lines are kept. */
function foldLines(rows: string[]): string {
	let out = "";
	for (let k = 0; k < rows.length; k++) {
		const row = rows[k] as string;
		const prev = rows[k - 1];
		if (k === 0) out = row;
		else if (row === "" || prev === "" || row.startsWith(" ") || prev?.startsWith(" ")) out += `\n${row}`;
		else out += ` ${row}`;
	}
	return out.replace(/([^\n])\n\n/g, "$1\n");
}

export function parseYaml(source: string): unknown {
	const lines: Line[] = source
		.replace(/\r\n?/g, "\n")
		.split("\n")
		.map((raw, k) => {
			const indent = raw.length - raw.replace(/^ +/, "").length;
			const text = raw.slice(indent).trimEnd();
			if (text.startsWith("\t")) throw new YamlError("tabs may not be used for indentation", k + 1);
			return { no: k + 1, indent, text };
		});
	return new Parser(lines).document();
}
