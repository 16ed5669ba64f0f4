// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use the literal ${NAME} syntax on purpose
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
	clearValueCache,
	isValueConfigured,
	resolveHeaderValues,
	resolveValue,
	resolveValueOrThrow,
	valueEnvNames,
	valueKind,
} from "../../../src/ai/auth/resolve-value.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const env = { MY_KEY: "from-env", OTHER: "two", EMPTY: "" };
const opts = { baseEnv: env };

beforeEach(() => clearValueCache());

describe("literal and environment values", () => {
	test("a plain string is literal", () => {
		expect(resolveValue("sk-literal-123", opts)).toEqual({ ok: true, value: "sk-literal-123" });
	});
	test("a bare name of a set variable resolves to its value", () => {
		expect(resolveValue("MY_KEY", opts)).toEqual({ ok: true, value: "from-env" });
	});
	test("a bare name of an unset or empty variable stays literal", () => {
		expect(resolveValue("NOT_SET_ANYWHERE", opts)).toEqual({ ok: true, value: "NOT_SET_ANYWHERE" });
		expect(resolveValue("EMPTY", opts)).toEqual({ ok: true, value: "EMPTY" });
	});
	test("bare names can be switched off", () => {
		expect(resolveValue("MY_KEY", { ...opts, bareEnvNames: false })).toEqual({ ok: true, value: "MY_KEY" });
	});
	test("$NAME and ${NAME} interpolate", () => {
		expect(resolveValue("$MY_KEY", opts)).toEqual({ ok: true, value: "from-env" });
		expect(resolveValue("Bearer ${MY_KEY}-${OTHER}", opts)).toEqual({ ok: true, value: "Bearer from-env-two" });
		expect(resolveValue("$MY_KEY/$OTHER", opts)).toEqual({ ok: true, value: "from-env/two" });
	});
	test("$$ and $! escape, a lone $ is kept", () => {
		expect(resolveValue("pa$$word", opts)).toEqual({ ok: true, value: "pa$word" });
		expect(resolveValue("$!not-a-command", opts)).toEqual({ ok: true, value: "!not-a-command" });
		expect(resolveValue("cost: 5$", opts)).toEqual({ ok: true, value: "cost: 5$" });
		expect(resolveValue("${bad name}", opts)).toEqual({ ok: true, value: "${bad name}" });
	});
	test("an unset referenced variable is an error naming it", () => {
		expect(resolveValue("$NOPE_1", opts)).toEqual({ ok: false, error: "environment variable NOPE_1 is not set" });
		expect(resolveValue("${EMPTY}", opts)).toEqual({ ok: false, error: "environment variable EMPTY is not set" });
		expect(resolveValue("$A_X$B_X", opts)).toEqual({ ok: false, error: "environment variables A_X, B_X are not set" });
	});
	test("the overlay env wins over the base env", () => {
		expect(resolveValue("$MY_KEY", { ...opts, env: { MY_KEY: "overlay" } })).toEqual({ ok: true, value: "overlay" });
	});
	test("process.env is the default base", () => {
		process.env.PI_RESOLVE_VALUE_TEST = "proc";
		try {
			expect(resolveValue("$PI_RESOLVE_VALUE_TEST")).toEqual({ ok: true, value: "proc" });
		} finally {
			delete process.env.PI_RESOLVE_VALUE_TEST;
		}
	});
	test("classification without resolving", () => {
		expect(valueKind("!echo hi")).toBe("command");
		expect(valueKind("$MY_KEY", opts)).toBe("environment");
		expect(valueKind("MY_KEY", opts)).toBe("environment");
		expect(valueKind("sk-1", opts)).toBe("literal");
		expect(valueEnvNames("${A_1}-$B_2-$A_1", opts)).toEqual(["A_1", "B_2"]);
		expect(isValueConfigured("$MY_KEY", opts)).toBe(true);
		expect(isValueConfigured("$MISSING_X", opts)).toBe(false);
		expect(isValueConfigured("!false", opts)).toBe(true);
	});
});

describe("!command values", () => {
	test("stdout is trimmed", () => {
		expect(resolveValue("!printf '  secret-value \\n\\n'")).toEqual({ ok: true, value: "secret-value" });
	});
	test("runs through sh -c (pipes work)", () => {
		expect(resolveValue("!echo abc | tr a-c x-z")).toEqual({ ok: true, value: "xyz" });
	});
	test("a failing command is an error naming the command and the exit code", () => {
		const result = resolveValue("!echo oops >&2; exit 3");
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error).toContain('command "!echo oops >&2; exit 3"');
			expect(result.error).toContain("exit code 3");
			expect(result.error).toContain("oops");
		}
	});
	test("empty output is an error", () => {
		expect(resolveValue("!true")).toEqual({ ok: false, error: 'command "!true" printed nothing' });
	});
	test("an empty command is an error", () => {
		expect(resolveValue("!  ").ok).toBe(false);
	});
	test("a timeout is an error", () => {
		const result = resolveValue("!sleep 5", { timeoutMs: 100 });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toMatch(/timed out|killed/);
	});
	test("cached: runs once per process; uncached: every call", () => {
		const dir = makeTempDir();
		const counter = join(dir, "count");
		const command = `!echo x >> ${counter}; wc -l < ${counter}`;
		expect(resolveValue(command, { cache: true })).toEqual({ ok: true, value: "1" });
		expect(resolveValue(command, { cache: true })).toEqual({ ok: true, value: "1" });
		expect(readFileSync(counter, "utf8").trim().split("\n")).toHaveLength(1);
		expect(resolveValue(command)).toEqual({ ok: true, value: "2" });
		expect(resolveValue(command)).toEqual({ ok: true, value: "3" });
		clearValueCache();
		expect(resolveValue(command, { cache: true })).toEqual({ ok: true, value: "4" });
	});
	test("a cached failure is not retried", () => {
		const dir = makeTempDir();
		const marker = join(dir, "ran");
		const command = `!touch ${marker}; exit 1`;
		expect(resolveValue(command, { cache: true }).ok).toBe(false);
		rmSync(marker);
		expect(resolveValue(command, { cache: true }).ok).toBe(false);
		expect(existsSync(marker)).toBe(false);
	});
});

describe("throwing helpers", () => {
	test("resolveValueOrThrow prefixes the description", () => {
		expect(resolveValueOrThrow("$MY_KEY", "apiKey", opts)).toBe("from-env");
		expect(() => resolveValueOrThrow("$NOPE_2", "apiKey", opts)).toThrow(
			"apiKey: environment variable NOPE_2 is not set",
		);
	});
	test("resolveHeaderValues resolves each header and names the failing one", () => {
		expect(resolveHeaderValues({ "X-A": "$MY_KEY", "X-B": "lit", "X-C": "!echo c" }, "provider", opts)).toEqual({
			"X-A": "from-env",
			"X-B": "lit",
			"X-C": "c",
		});
		expect(() => resolveHeaderValues({ "X-Bad": "!exit 1" }, 'provider "p"', opts)).toThrow(
			'provider "p" header "X-Bad": command "!exit 1" failed with exit code 1',
		);
	});
});
