import { describe, expect, test } from "bun:test";
import { parseArgs, resolveExtensionFlags } from "../../../src/cli/args.ts";
import { renderHelp } from "../../../src/cli/help.ts";
import { UserError } from "../../../src/util/index.ts";

describe("parseArgs", () => {
	test("built-in flags, aliases, lists, files and messages", () => {
		const args = parseArgs([
			"-p",
			"hello",
			"@a.txt",
			"-e",
			"x.ts",
			"--extension=y.ts",
			"--model",
			"sonnet",
			"-nc",
			"bye",
		]);
		expect(args.flags.get("print")).toBe(true);
		expect(args.flags.get("extension")).toEqual(["x.ts", "y.ts"]);
		expect(args.flags.get("model")).toBe("sonnet");
		expect(args.flags.get("no-context-files")).toBe(true);
		expect(args.files).toEqual(["a.txt"]);
		expect(args.messages).toEqual(["hello", "bye"]);
	});
	test("-- ends option parsing", () => {
		const args = parseArgs(["--", "-not-a-flag", "@notfile"]);
		expect(args.messages).toEqual(["-not-a-flag", "@notfile"]);
		expect(args.files).toEqual([]);
	});
	test("--list-models takes an optional search", () => {
		expect(parseArgs(["--list-models"]).flags.get("list-models")).toBe(true);
		expect(parseArgs(["--list-models", "claude"]).flags.get("list-models")).toBe("claude");
		expect(parseArgs(["--list-models", "-p"]).flags.get("list-models")).toBe(true);
	});
	test("an unknown single-dash option is an error naming it", () => {
		expect(() => parseArgs(["-x"])).toThrow("Unknown option: -x");
	});
	test("a value option without its value is an error", () => {
		expect(() => parseArgs(["--model"])).toThrow(UserError);
		expect(() => parseArgs(["--model"])).toThrow("--model needs a value");
	});
	test("a switch given a value is an error", () => {
		expect(() => parseArgs(["--print=yes"])).toThrow("takes no value");
	});
});

describe("extension flags (pass two)", () => {
	test("string flags take the next token, booleans take none", () => {
		const args = parseArgs(["--plan", "--who", "bob", "do it", "--level=3"]);
		const values = resolveExtensionFlags(
			args,
			new Map([
				["plan", { type: "boolean" as const }],
				["who", { type: "string" as const }],
				["level", { type: "string" as const }],
			]),
		);
		expect(values.get("plan")).toBe(true);
		expect(values.get("who")).toBe("bob");
		expect(values.get("level")).toBe("3");
		expect(args.messages).toEqual(["do it"]);
	});
	test("a boolean flag does not swallow the message after it", () => {
		const args = parseArgs(["--plan", "do it"]);
		resolveExtensionFlags(args, new Map([["plan", { type: "boolean" as const }]]));
		expect(args.messages).toEqual(["do it"]);
	});
	test("an unregistered long option is an error naming it", () => {
		const args = parseArgs(["--nope"]);
		expect(() => resolveExtensionFlags(args, new Map())).toThrow("Unknown option: --nope");
	});
	test("a string flag with nothing after it is an error", () => {
		const args = parseArgs(["--who"]);
		expect(() => resolveExtensionFlags(args, new Map([["who", { type: "string" as const }]]))).toThrow(
			"--who needs a value",
		);
	});
});

describe("help", () => {
	test("lists built-in options and extension flags", () => {
		const text = renderHelp([{ name: "plan", type: "boolean", description: "Plan first", extensionPath: "/x.ts" }]);
		expect(text).toContain("--no-extensions");
		expect(text).toContain("-e, --extension <path>");
		expect(text).toContain("Extension CLI Flags:");
		expect(text).toContain("--plan");
		expect(text).toContain("Plan first");
	});
});
