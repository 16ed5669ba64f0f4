/**
 * pi's `parseArgs(args)` for SDK users: our own parser (`args.ts`) read into pi 0.87.1's `Args` object — named
 * fields, `messages`, `fileArgs`, `unknownFlags` (an unknown `--name` takes `=value` or the next plain argument,
 * else `true`) and `diagnostics` where pi has them (an invalid `--mode`, `--thinking`, `--tui-mode`, a missing
 * `--name` / `--use-theme` value, an unknown short option). Problems are reported, never thrown.
 */
import { THINKING_LEVELS } from "../runtime/index.ts";
import type { PiArgs } from "../sdk/index.ts";
import { type FlagValue, parseArgs } from "./args.ts";
import { FLAG_BY_ALIAS, FLAG_BY_NAME } from "./flags.ts";

/** Our option name → pi's field, for options whose value is kept as given. */
const SAME_VALUE: Record<string, keyof PiArgs> = {
	provider: "provider",
	model: "model",
	"api-key": "apiKey",
	"system-prompt": "systemPrompt",
	"append-system-prompt": "appendSystemPrompt",
	continue: "continue",
	resume: "resume",
	help: "help",
	version: "version",
	name: "name",
	"no-session": "noSession",
	session: "session",
	"session-id": "sessionId",
	fork: "fork",
	"session-dir": "sessionDir",
	"no-tools": "noTools",
	"no-builtin-tools": "noBuiltinTools",
	extension: "extensions",
	"no-extensions": "noExtensions",
	print: "print",
	export: "export",
	"no-skills": "noSkills",
	skill: "skills",
	"prompt-template": "promptTemplates",
	"no-prompt-templates": "noPromptTemplates",
	theme: "themes",
	"use-theme": "useTheme",
	"no-themes": "noThemes",
	"no-context-files": "noContextFiles",
	"list-models": "listModels",
	offline: "offline",
	verbose: "verbose",
};

/** pi's words for an option given without its value; any other such option is an unknown flag `true` in pi. */
const MISSING_VALUE: Record<string, string> = {
	mode: "--mode requires text, json, or rpc",
	name: "--name requires a value",
	"use-theme": "--use-theme requires a theme name",
	"tui-mode": "--tui-mode requires regular or fullscreen",
};

const list = (value: string, keepEmpty: boolean): string[] =>
	value
		.split(",")
		.map((s) => s.trim())
		.filter((s) => keepEmpty || s.length > 0);

/** Markers `markPiQuirks` puts in front of tokens; `toPiArgs` takes them off again. */
const AS_UNKNOWN = "\u0000";
const AS_MESSAGE = "\u0001";
const MISSING = "\u0002";

/** Options pi reads as missing their value when the next argument is absent or starts with "-". */
const NEEDS_PLAIN_VALUE = new Set(["--mode", "--use-theme", "--tui-mode"]);

/**
 * Where pi reads a token otherwise than our parser, the token is marked so our parser reports it in place (order
 * kept): `--name=value` of a built-in option is an unknown flag to pi; `-p` takes a following `---text` as a
 * message; a lone `-` is an unknown option; `--mode` / `--use-theme` / `--tui-mode` before an option or at the end
 * are missing their value (and the option after them still counts).
 */
function markPiQuirks(argv: readonly string[]): string[] {
	const marked: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (arg === "--") {
			marked.push(...argv.slice(i));
			break;
		}
		const next = argv[i + 1];
		const eq = arg.indexOf("=");
		if (arg === "-") marked.push(`-${MISSING}`);
		else if (arg.startsWith("--") && eq > 2 && FLAG_BY_NAME.has(arg.slice(2, eq)))
			marked.push(`--${AS_UNKNOWN}${arg.slice(2)}`);
		else if (NEEDS_PLAIN_VALUE.has(arg) && (next === undefined || next.startsWith("-")))
			marked.push(`-${MISSING}${arg}`);
		else if ((arg === "-p" || arg === "--print") && next?.startsWith("---")) {
			marked.push(arg, `${AS_MESSAGE}${next}`);
			i++;
		} else marked.push(arg);
	}
	return marked;
}

export function toPiArgs(argv: readonly string[]): PiArgs {
	const problems: string[] = [];
	const parsed = parseArgs(markPiQuirks(argv), problems);
	for (const flag of parsed.unknown) flag.name = flag.name.replace(AS_UNKNOWN, "");
	parsed.messages = parsed.messages.map((message) => (message.startsWith(AS_MESSAGE) ? message.slice(1) : message));
	const result: PiArgs = { messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] };
	const fields = result as unknown as Record<string, unknown>;
	for (const problem of problems) readProblem(problem, result);
	for (const [name, value] of parsed.flags) {
		const field = SAME_VALUE[name];
		if (field) fields[field] = Array.isArray(value) ? [...value] : value;
		else readSpecial(name, value, result);
	}
	if (parsed.flags.has("approve") || parsed.flags.has("no-approve")) {
		// The last of the two wins, as in pi.
		const last = [...argv].reverse().find((a) => ["--approve", "-a", "--no-approve", "-na"].includes(a));
		result.projectTrustOverride = last === "--approve" || last === "-a";
	}
	// Unknown `--name value` takes the next plain argument, which our first pass kept as a message.
	const consumed = new Set<number>();
	for (const flag of parsed.unknown) {
		if (flag.inline !== undefined) result.unknownFlags.set(flag.name, flag.inline);
		else if (flag.nextMessageIndex !== undefined) {
			result.unknownFlags.set(flag.name, parsed.messages[flag.nextMessageIndex] as string);
			consumed.add(flag.nextMessageIndex);
		} else result.unknownFlags.set(flag.name, true);
	}
	parsed.messages.forEach((message, index) => {
		if (consumed.has(index)) return;
		// A message starting with "@" can only come after "--": pi still reads it as a file argument there.
		if (message.startsWith("@")) result.fileArgs.push(message.slice(1));
		else result.messages.push(message);
	});
	result.fileArgs.unshift(...parsed.files);
	return result;
}

function readSpecial(name: string, value: FlagValue, result: PiArgs): void {
	const text = String(value);
	switch (name) {
		case "mode":
			if (text === "text" || text === "json" || text === "rpc") result.mode = text;
			else error(result, `Invalid mode "${text}". Valid values: text, json, rpc`);
			return;
		case "thinking":
			if ((THINKING_LEVELS as readonly string[]).includes(text)) result.thinking = text;
			else {
				const message = `Invalid thinking level "${text}". Valid values: ${THINKING_LEVELS.join(", ")}`;
				result.diagnostics.push({ type: "warning", message });
			}
			return;
		case "tui-mode":
			if (text === "regular" || text === "fullscreen") result.tuiMode = text;
			else error(result, `Invalid TUI mode "${text}". Valid values: regular, fullscreen`);
			return;
		case "models":
			result.models = list(text, true);
			return;
		case "tools":
			result.tools = list(text, false);
			return;
		case "exclude-tools":
			result.excludeTools = list(text, false);
			return;
	}
}

/** One problem our parser collected, as pi reports it. */
function readProblem(problem: string, result: PiArgs): void {
	const marked = new RegExp(`^Unknown option: -${MISSING}(.*)$`).exec(problem);
	if (marked) {
		const option = marked[1] as string;
		error(result, option === "" ? "Unknown option: -" : (MISSING_VALUE[option.slice(2)] as string));
		return;
	}
	const missing = /^option (-{1,2}[^\s=]+) needs a value/.exec(problem);
	if (missing) {
		const shown = missing[1] as string;
		const name = shown.startsWith("--") ? shown.slice(2) : (FLAG_BY_ALIAS.get(shown.slice(1))?.name ?? shown);
		const message = MISSING_VALUE[name];
		if (message) error(result, message);
		else result.unknownFlags.set(name, true);
		return;
	}
	const valued = /^option --([^\s=]+)=(.*) takes no value$/.exec(problem);
	if (valued && FLAG_BY_NAME.has(valued[1] as string)) {
		// pi knows `--print`, not `--print=…`: the whole thing is an unknown flag with that value.
		result.unknownFlags.set(valued[1] as string, valued[2] as string);
		return;
	}
	error(result, problem);
}

function error(result: PiArgs, message: string): void {
	result.diagnostics.push({ type: "error", message });
}
