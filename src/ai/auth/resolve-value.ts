/**
 * Config value resolution for secrets and header values (auth.json `key`, models.json `apiKey` and `headers`,
 * extension `registerProvider` apiKey/headers). One grammar:
 *
 * - `!<command>`: run `sh -c <command>`; the trimmed stdout is the value. Non-zero exit, timeout or empty output
 *   is an error naming the command.
 * - a bare environment-variable name (e.g. `OPENAI_API_KEY`) that is set in the environment: its value. This is
 *   the older pi rule; plain strings that are not a set variable's name stay literal.
 * - otherwise a template: `$NAME` and `${NAME}` interpolate environment variables (an unset or empty one is an
 *   error), `$$` is a literal `$`, `$!` a literal `!` (so `$!x` is the literal `!x`, not a command). Anything else
 *   is literal.
 *
 * Command results can be cached for the process lifetime (`cache: true`, what auth.json wants) or run on every
 * call (models.json). Failures are cached too: a broken command is not re-run on every lookup.
 */
import { childProcess } from "../../util/index.ts";

export type ValueEnv = Readonly<Record<string, string | undefined>>;

export interface ResolveValueOptions {
	/** Keep a command's outcome (value or failure) for the rest of the process. Default false. */
	cache?: boolean;
	/** Variables consulted before `process.env` (e.g. a credential's own `env`). */
	env?: ValueEnv;
	/** Base environment; default `process.env`. */
	baseEnv?: ValueEnv;
	/** Treat a bare variable name as a reference when that variable is set. Default true. */
	bareEnvNames?: boolean;
	/** Command timeout; default 10 s. */
	timeoutMs?: number;
}

export type ValueResult = { ok: true; value: string } | { ok: false; error: string };

/** How a raw value gets its content, without running or reading anything secret. */
export type ValueKind = "command" | "environment" | "literal";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;
const DEFAULT_TIMEOUT_MS = 10_000;

const commandCache = new Map<string, ValueResult>();

type Part = { literal: string } | { env: string };

function lookup(name: string, options: ResolveValueOptions): string | undefined {
	const value = options.env?.[name] ?? (options.baseEnv ?? process.env)[name];
	return value === undefined || value === "" ? undefined : value;
}

/** Splits a non-command value into literal text and `$NAME` / `${NAME}` references. */
function parseTemplate(raw: string): Part[] {
	const parts: Part[] = [];
	let literal = "";
	let i = 0;
	while (i < raw.length) {
		const dollar = raw.indexOf("$", i);
		if (dollar < 0) {
			literal += raw.slice(i);
			break;
		}
		literal += raw.slice(i, dollar);
		const next = raw[dollar + 1];
		if (next === "$" || next === "!") {
			literal += next;
			i = dollar + 2;
			continue;
		}
		let name: string | undefined;
		let end = dollar + 1;
		if (next === "{") {
			const close = raw.indexOf("}", dollar + 2);
			const inner = close < 0 ? "" : raw.slice(dollar + 2, close);
			if (close >= 0 && ENV_NAME.test(inner)) {
				name = inner;
				end = close + 1;
			}
		} else {
			const match = ENV_NAME_PREFIX.exec(raw.slice(dollar + 1));
			if (match) {
				name = match[0];
				end = dollar + 1 + name.length;
			}
		}
		if (name === undefined) {
			// A lone `$` (or a malformed `${...`) is kept as written.
			literal += "$";
			i = dollar + 1;
			continue;
		}
		if (literal !== "") parts.push({ literal });
		literal = "";
		parts.push({ env: name });
		i = end;
	}
	if (literal !== "") parts.push({ literal });
	return parts;
}

export function isCommandValue(raw: string): boolean {
	return raw.startsWith("!");
}

/** Environment variables a value depends on (none for a command). */
export function valueEnvNames(raw: string, options: ResolveValueOptions = {}): string[] {
	if (isCommandValue(raw)) return [];
	if ((options.bareEnvNames ?? true) && ENV_NAME.test(raw) && lookup(raw, options) !== undefined) return [raw];
	const names: string[] = [];
	for (const part of parseTemplate(raw)) {
		if ("env" in part && !names.includes(part.env)) names.push(part.env);
	}
	return names;
}

/** Classifies a value for status displays; never runs the command. */
export function valueKind(raw: string, options: ResolveValueOptions = {}): ValueKind {
	if (isCommandValue(raw)) return "command";
	return valueEnvNames(raw, options).length > 0 ? "environment" : "literal";
}

/** True when every variable the value references is set (commands count as configured; they run later). */
export function isValueConfigured(raw: string, options: ResolveValueOptions = {}): boolean {
	return valueEnvNames(raw, options).every((name) => lookup(name, options) !== undefined);
}

function runCommand(command: string, timeoutMs: number): ValueResult {
	const label = `command "!${command}"`;
	const run = childProcess().spawnSync("sh", ["-c", command], {
		encoding: "utf8",
		timeout: timeoutMs,
		stdio: ["ignore", "pipe", "pipe"],
		windowsHide: true,
	});
	if (run.error) {
		const code = (run.error as NodeJS.ErrnoException).code;
		if (code === "ETIMEDOUT") return { ok: false, error: `${label} timed out after ${timeoutMs} ms` };
		return { ok: false, error: `${label} could not run: ${run.error.message}` };
	}
	if (run.signal) return { ok: false, error: `${label} was killed by ${run.signal}` };
	if (run.status !== 0) {
		const detail = (run.stderr ?? "")
			.split("\n")
			.map((line) => line.trim())
			.find((line) => line !== "");
		return { ok: false, error: `${label} failed with exit code ${run.status}${detail ? `: ${detail}` : ""}` };
	}
	const value = (run.stdout ?? "").trim();
	if (value === "") return { ok: false, error: `${label} printed nothing` };
	return { ok: true, value };
}

/** Resolves a raw config value; never throws. */
export function resolveValue(raw: string, options: ResolveValueOptions = {}): ValueResult {
	if (isCommandValue(raw)) {
		const command = raw.slice(1).trim();
		if (command === "") return { ok: false, error: 'empty command after "!"' };
		if (options.cache) {
			const hit = commandCache.get(command);
			if (hit) return hit;
		}
		const result = runCommand(command, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		if (options.cache) commandCache.set(command, result);
		return result;
	}
	if ((options.bareEnvNames ?? true) && ENV_NAME.test(raw)) {
		const value = lookup(raw, options);
		if (value !== undefined) return { ok: true, value };
	}
	let value = "";
	const missing: string[] = [];
	for (const part of parseTemplate(raw)) {
		if ("literal" in part) {
			value += part.literal;
			continue;
		}
		const envValue = lookup(part.env, options);
		if (envValue === undefined) missing.push(part.env);
		else value += envValue;
	}
	if (missing.length > 0) {
		const names = [...new Set(missing)];
		const noun = names.length === 1 ? "environment variable" : "environment variables";
		return { ok: false, error: `${noun} ${names.join(", ")} ${names.length === 1 ? "is" : "are"} not set` };
	}
	return { ok: true, value };
}

/** Like `resolveValue`, but throws `Error("<what>: <reason>")` on failure. */
export function resolveValueOrThrow(raw: string, what: string, options: ResolveValueOptions = {}): string {
	const result = resolveValue(raw, options);
	if (!result.ok) throw new Error(`${what}: ${result.error}`);
	return result.value;
}

/** Resolves every header value (per call, uncached unless asked); throws naming the first header that fails. */
export function resolveHeaderValues(
	headers: Readonly<Record<string, string>>,
	what: string,
	options: ResolveValueOptions = {},
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, raw] of Object.entries(headers)) {
		out[name] = resolveValueOrThrow(raw, `${what} header "${name}"`, options);
	}
	return out;
}

/** Forgets cached command results (tests, or after the user changed a secret manager entry). */
export function clearValueCache(): void {
	commandCache.clear();
}
