/**
 * Command-line parsing in two passes. Pass one (`parseArgs`) knows the built-in options and keeps every unknown
 * `--name` with the tokens after it; pass two (`resolveExtensionFlags`), after extensions have registered their
 * flags, gives those tokens their meaning or rejects them. Errors are `UserError`s naming the option.
 */
import { UserError } from "../util/index.ts";
import { FLAG_BY_ALIAS, FLAG_BY_NAME, type FlagSpec } from "./flags.ts";

export type FlagValue = boolean | string | string[];

export interface ParsedArgs {
	/** Built-in options by long name. Lists (`-e`) are string arrays. */
	flags: Map<string, FlagValue>;
	/** `@file` arguments, in order, without the `@`. */
	files: string[];
	/** Message arguments, in order. */
	messages: string[];
	/** Unknown long options waiting for pass two: name, inline `=value`, and the token after it (if any). */
	unknown: UnknownFlag[];
}

export interface UnknownFlag {
	name: string;
	inline?: string;
	/** Index into `messages` of the token right after the flag, if it was taken as a message in pass one. */
	nextMessageIndex?: number;
}

/**
 * `errors`: collect each problem (its message without "Error: ") and go on with the next argument, as pi's
 * `parseArgs` reports diagnostics; without it the first problem is thrown as a `UserError`.
 */
export function parseArgs(argv: readonly string[], errors?: string[]): ParsedArgs {
	const parsed: ParsedArgs = { flags: new Map(), files: [], messages: [], unknown: [] };
	let i = 0;
	const fail = (message: string): undefined => {
		if (!errors) throw new UserError(`Error: ${message}`);
		errors.push(message);
		return undefined;
	};
	const takeValue = (spec: FlagSpec, shown: string, inline: string | undefined): string | undefined => {
		if (inline !== undefined) return inline;
		const next = argv[i + 1];
		if (next === undefined) return fail(`option ${shown} needs a value (${spec.arg ?? "<value>"})`);
		i++;
		return next;
	};
	for (; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (arg === "--") {
			parsed.messages.push(...argv.slice(i + 1));
			break;
		}
		if (arg.startsWith("@") && arg.length > 1) {
			parsed.files.push(arg.slice(1));
			continue;
		}
		if (!arg.startsWith("-") || arg === "-") {
			parsed.messages.push(arg);
			continue;
		}
		const long = arg.startsWith("--");
		const body = long ? arg.slice(2) : arg.slice(1);
		const eq = long ? body.indexOf("=") : -1;
		const name = eq >= 0 ? body.slice(0, eq) : body;
		const inline = eq >= 0 ? body.slice(eq + 1) : undefined;
		const spec = long ? FLAG_BY_NAME.get(name) : FLAG_BY_ALIAS.get(name);
		if (!spec) {
			if (!long) {
				fail(`Unknown option: ${arg}`);
				continue;
			}
			const next = argv[i + 1];
			const unknown: UnknownFlag = { name, ...(inline !== undefined ? { inline } : {}) };
			if (inline === undefined && next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
				unknown.nextMessageIndex = parsed.messages.length;
			}
			parsed.unknown.push(unknown);
			continue;
		}
		switch (spec.kind) {
			case "boolean":
				if (inline !== undefined) fail(`option ${arg} takes no value`);
				else parsed.flags.set(spec.name, true);
				break;
			case "value": {
				const value = takeValue(spec, arg, inline);
				if (value !== undefined) parsed.flags.set(spec.name, value);
				break;
			}
			case "list": {
				const value = takeValue(spec, arg, inline);
				if (value === undefined) break;
				const list = (parsed.flags.get(spec.name) as string[] | undefined) ?? [];
				list.push(value);
				parsed.flags.set(spec.name, list);
				break;
			}
			case "optional": {
				const next = argv[i + 1];
				if (inline !== undefined) parsed.flags.set(spec.name, inline);
				else if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
					parsed.flags.set(spec.name, next);
					i++;
				} else parsed.flags.set(spec.name, true);
				break;
			}
		}
	}
	return parsed;
}

export interface ExtensionFlagSpec {
	type: "boolean" | "string";
}

/**
 * Pass two: gives each unknown `--name` the type an extension registered. A string flag takes its inline value or
 * the next token (removed from `messages`); a boolean flag takes `=true/false` or nothing. An unregistered name is
 * an error. Returns the values by flag name.
 */
export function resolveExtensionFlags(
	parsed: ParsedArgs,
	registered: ReadonlyMap<string, ExtensionFlagSpec>,
): Map<string, boolean | string> {
	const values = new Map<string, boolean | string>();
	const consumed = new Set<number>();
	for (const flag of parsed.unknown) {
		const spec = registered.get(flag.name);
		if (!spec) throw new UserError(`Error: Unknown option: --${flag.name}`);
		if (spec.type === "boolean") {
			if (flag.inline === undefined) values.set(flag.name, true);
			else if (flag.inline === "true" || flag.inline === "false") values.set(flag.name, flag.inline === "true");
			else throw new UserError(`Error: option --${flag.name} is a switch; use --${flag.name} or --${flag.name}=false`);
			continue;
		}
		if (flag.inline !== undefined) values.set(flag.name, flag.inline);
		else if (flag.nextMessageIndex !== undefined) {
			values.set(flag.name, parsed.messages[flag.nextMessageIndex] as string);
			consumed.add(flag.nextMessageIndex);
		} else throw new UserError(`Error: option --${flag.name} needs a value`);
	}
	parsed.messages = parsed.messages.filter((_, index) => !consumed.has(index));
	parsed.unknown = [];
	return values;
}
