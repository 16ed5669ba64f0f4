/**
 * Reads a LaTeX math expression into terminal text. Unknown commands or unbalanced braces make the whole result
 * undefined (the caller then shows the source). In display mode, fractions, big-operator limits and awkward
 * scripts become two-dimensional pieces (see layout.ts), referenced from the text by markers.
 */
import { environment } from "./environments.ts";
import {
	fraction,
	OPERATOR_CLOSE,
	OPERATOR_OPEN,
	root,
	type ScriptKind,
	script,
	tidy,
	UNSPACE,
	unicodeScript,
} from "./format.ts";
import { type LayoutNode, MARK_OPEN, marker, TRAILING_MARK } from "./layout.ts";
import {
	ACCENTS,
	BLACKBOARD,
	DISPLAY_LIMIT_SYMBOLS,
	FONT_SWITCHES,
	IGNORED,
	LIMIT_OPERATORS,
	NAMED_OPERATORS,
	NEGATED,
	NEGATIVE_SPACING,
	PLAIN_WRAPPERS,
	RELATIONS,
	SIZES,
	SPACING,
	SYMBOLS,
} from "./symbols.ts";

const LITERAL_ESCAPES = new Set(["{", "}", "$", "%", "#", "_", "&"]);

export class MathReader {
	pos = 0;
	ok = true;
	/** Whether a fraction here may be stacked (false inside arguments that must stay on one line). */
	private stack = true;
	private scriptDepth = 0;

	constructor(
		readonly src: string,
		readonly nodes: LayoutNode[],
		readonly display: boolean,
	) {}

	read(): string | undefined {
		const out = this.sequence();
		return this.ok && this.pos === this.src.length ? tidy(out) : undefined;
	}

	/** Reads `source` with a fresh reader sharing the layout pieces; failure there fails this reader. */
	nested(source: string, stack = true): string {
		const out = new MathReader(source, this.nodes, this.display && stack).read();
		if (out === undefined) {
			this.ok = false;
			return source;
		}
		return out;
	}

	peek(offset = 0): string {
		return this.src[this.pos + offset] ?? "";
	}

	skip(pattern: RegExp): void {
		while (this.pos < this.src.length && pattern.test(this.peek())) this.pos++;
	}

	sequence(end?: string): string {
		let out = "";
		while (this.pos < this.src.length) {
			const char = this.peek();
			if (end && char === end) {
				this.pos++;
				return out;
			}
			if (char === "}") {
				this.ok = false;
				return out;
			}
			if (char === "{") {
				this.pos++;
				out += this.sequence("}");
			} else if (char === "\\") {
				const command = this.command();
				if (command === UNSPACE) {
					out = out.trimEnd();
					if (out.endsWith(OPERATOR_CLOSE)) out = out.slice(0, -OPERATOR_CLOSE.length);
				} else out += command;
			} else if (char === "^" || char === "_") {
				this.pos++;
				out = out.trimEnd();
				const scripts = this.scripts(char);
				// Scripts of an operator name stay inside its brackets (no space before them).
				out = out.endsWith(OPERATOR_CLOSE)
					? `${out.slice(0, -OPERATOR_CLOSE.length)}${scripts}${OPERATOR_CLOSE}`
					: out + scripts;
			} else if (/\s/.test(char)) {
				this.skip(/\s/);
				out += " ";
			} else if (char === "=" || char === "<" || char === ">") {
				out = `${out.trimEnd()} ${char} `;
				this.pos++;
			} else if (char === "&") this.pos++;
			else if (char === "~") {
				this.pos++;
				out += " ";
			} else if (char === "." && this.appendToMatrix(out)) {
				this.pos++;
			} else {
				out += char;
				this.pos++;
			}
		}
		if (end) this.ok = false;
		return out;
	}

	/** A full stop right after a matrix or cases piece ends its last row. */
	private appendToMatrix(out: string): boolean {
		const mark = TRAILING_MARK.exec(out);
		const node = mark ? this.nodes[Number(mark[1])] : undefined;
		if (node?.type !== "matrix") return false;
		const last = node.lines.length - 1;
		node.lines[last] = `${node.lines[last] ?? ""}.`;
		return true;
	}

	private scripts(first: "^" | "_"): string {
		const values: Partial<Record<ScriptKind, string>> = {};
		const order: ScriptKind[] = [];
		const take = (mark: string) => {
			const kind: ScriptKind = mark === "_" ? "sub" : "sup";
			this.scriptDepth++;
			try {
				values[kind] = this.argument(false);
			} finally {
				this.scriptDepth--;
			}
			order.push(kind);
		};
		take(first);
		let next = this.pos;
		while (next < this.src.length && /\s/.test(this.src[next] ?? "")) next++;
		const other = this.src[next];
		if ((other === "^" || other === "_") && other !== first) {
			this.pos = next + 1;
			take(other);
		}
		const { sub, sup } = values;
		const subUnicode = sub === undefined ? undefined : unicodeScript(sub, "sub");
		const supUnicode = sup === undefined ? undefined : unicodeScript(sup, "sup");
		const layable = ![sub, sup].some(
			(value) =>
				value !== undefined &&
				(value.includes("/") || (!value.includes(MARK_OPEN) && [...value].length > 1 && !/[A-Z*∗]/.test(value))),
		);
		const stacked =
			this.display &&
			layable &&
			(this.scriptDepth > 0 ||
				(sub !== undefined && subUnicode === undefined) ||
				(sup !== undefined && supUnicode === undefined));
		if (!stacked) {
			return order
				.map((kind) =>
					kind === "sub" ? (subUnicode ?? script(sub ?? "", kind)) : (supUnicode ?? script(sup ?? "", kind)),
				)
				.join("");
		}
		return marker(this.nodes, {
			type: "script",
			lower: sub === undefined ? undefined : tidy(sub),
			upper: sup === undefined ? undefined : tidy(sup),
		});
	}

	private commandName(): string | undefined {
		this.pos++;
		if (this.pos >= this.src.length) {
			this.ok = false;
			return undefined;
		}
		const first = this.peek();
		if (first === "\n" || first === "\r") {
			this.pos++;
			if (first === "\r" && this.peek() === "\n") this.pos++;
			return " ";
		}
		if (/[A-Za-z]/.test(first)) {
			const start = this.pos;
			this.skip(/[A-Za-z]/);
			return this.src.slice(start, this.pos);
		}
		this.pos++;
		return first;
	}

	command(): string {
		const name = this.commandName();
		if (name === undefined) return "";
		if (name === "\\") return "\n";
		if (SPACING.has(name)) return " ";
		if (NEGATIVE_SPACING.has(name)) return UNSPACE;
		if (FONT_SWITCHES.has(name)) {
			this.skip(/\s/);
			return "";
		}
		if (IGNORED.has(name)) return "";
		if (LITERAL_ESCAPES.has(name)) return name;
		if (name === "|") return "‖";
		if (name === "not") return this.negation();
		if (LIMIT_OPERATORS.has(name)) return this.operator(name, "bracket", true, true);
		const symbol = SYMBOLS[name];
		if (symbol !== undefined) {
			if (DISPLAY_LIMIT_SYMBOLS.has(name)) return this.operator(symbol, "script", true);
			return name === "cdot" || name === "times" || RELATIONS.has(name) ? ` ${symbol} ` : symbol;
		}
		if (NAMED_OPERATORS.has(name)) return OPERATOR_OPEN + name + OPERATOR_CLOSE;
		if (SIZES.has(name)) return "";
		if (name === "left" || name === "middle" || name === "right") {
			if (this.peek() === ".") this.pos++;
			return "";
		}
		return this.structure(name);
	}

	private negation(): string {
		const value = this.argument(false).trim();
		const negated = NEGATED[value];
		if (negated !== undefined) return ` ${negated} `;
		const chars = [...value];
		if (chars.length === 0) {
			this.ok = false;
			return "";
		}
		return ` ${chars[0]}\u0338${chars.slice(1).join("")} `;
	}

	/** Commands with arguments: fractions, roots, accents, fonts, environments… */
	private structure(name: string): string {
		switch (name) {
			case "frac":
			case "dfrac":
			case "tfrac": {
				const stacked = this.display && this.stack && name !== "tfrac";
				const top = this.argument(!stacked);
				const bottom = this.argument(!stacked);
				if (!stacked) return fraction(top, bottom);
				return marker(this.nodes, { type: "fraction", numerator: tidy(top), denominator: tidy(bottom) });
			}
			case "sqrt": {
				const degree = this.optionalArgument()?.trim();
				const value = this.argument();
				if (degree === undefined || degree === "2") return root(value);
				if (degree === "3") return root(value, "∛");
				if (degree === "4") return root(value, "∜");
				return script(degree, "sup") + root(value);
			}
			case "boxed":
			case "fbox":
				return `[${this.argument().trim()}]`;
			case "binom":
			case "dbinom":
			case "tbinom":
				return `(${this.argument()} choose ${this.argument()})`;
			case "mathbb":
				return Array.from(this.argument(), (char) => BLACKBOARD[char] ?? char).join("");
			case "operatorname": {
				const starred = this.peek() === "*";
				if (starred) this.pos++;
				return this.operator(tidy(this.argument()).trim(), "bracket", starred, true);
			}
			case "mod":
			case "bmod":
				return " mod ";
			case "pmod":
			case "pod": {
				const value = this.argument().trim();
				return name === "pmod" ? ` (mod ${value})` : ` (${value})`;
			}
			case "overset":
			case "stackrel":
			case "underset": {
				const note = this.argument();
				return this.argument().trim() + script(note, name === "underset" ? "sub" : "sup");
			}
			case "begin":
				return environment(this);
			case "end":
				this.ok = false;
				return "";
		}
		const accent = ACCENTS[name];
		if (accent !== undefined) {
			const value = this.argument();
			return [...value].length === 1 ? value + accent : `${name}(${value})`;
		}
		if (PLAIN_WRAPPERS.has(name)) {
			const value = this.argument();
			return name.startsWith("text") || name === "mbox" ? value : value.trim();
		}
		this.ok = false;
		return `\\${name}`;
	}

	/** A big operator or named limit operator with optional `_`/`^` limits (`\limits` / `\nolimits` honoured). */
	private operator(op: string, inlineLower: "bracket" | "script", displayLimits: boolean, spaced = false): string {
		let limitsBelow = displayLimits;
		let at = this.pos;
		while (at < this.src.length && /[ \t]/.test(this.src[at] ?? "")) at++;
		const modifier = /^\\(limits|nolimits)(?![A-Za-z])/.exec(this.src.slice(at));
		if (modifier) {
			limitsBelow = modifier[1] === "limits";
			this.pos = at + modifier[0].length;
		}
		let lower: string | undefined;
		let upper: string | undefined;
		for (;;) {
			let next = this.pos;
			while (next < this.src.length && /[ \t]/.test(this.src[next] ?? "")) next++;
			const kind = this.src[next];
			if (kind !== "_" && kind !== "^") break;
			this.pos = next + 1;
			const value = tidy(this.argument(false)).replaceAll(" ", "");
			if (kind === "_") {
				if (lower !== undefined) this.ok = false;
				lower = value;
			} else {
				if (upper !== undefined) this.ok = false;
				upper = value;
			}
		}
		if (this.display && limitsBelow && (lower !== undefined || upper !== undefined)) {
			return marker(this.nodes, { type: "operator", operator: op, lower, upper });
		}
		let out = op;
		if (lower !== undefined) out += inlineLower === "bracket" ? `[${lower}]` : script(lower, "sub");
		if (upper !== undefined) out += script(upper, "sup");
		return spaced ? ` ${out} ` : out;
	}

	/** `{…}`, a command, or one character. `stack` false keeps fractions inside it on one line. */
	argument(stack = true): string {
		const outer = this.stack;
		this.stack = outer && stack;
		try {
			this.skip(/\s/);
			if (this.pos >= this.src.length) {
				this.ok = false;
				return "";
			}
			if (this.peek() === "{") {
				this.pos++;
				return this.sequence("}");
			}
			if (this.peek() === "\\") return this.command();
			return this.src[this.pos++] ?? "";
		} finally {
			this.stack = outer;
		}
	}

	private optionalArgument(): string | undefined {
		this.skip(/[ \t]/);
		if (this.peek() !== "[") return undefined;
		const end = this.src.indexOf("]", this.pos + 1);
		if (end < 0) {
			this.ok = false;
			return undefined;
		}
		const value = this.src.slice(this.pos + 1, end);
		this.pos = end + 1;
		return this.nested(value);
	}
}
