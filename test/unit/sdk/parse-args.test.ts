/**
 * The SDK's `parseArgs` (pi's export) against pi 0.87.1's own on a table of argument lists: the same `Args`
 * object — fields, messages, file arguments, unknown flags and diagnostics. Skips when pi's install is unavailable.
 */
import { describe, expect, test } from "bun:test";
import "../../../src/cli/index.ts";
import { parseArgs } from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const TABLE: string[][] = [
	[],
	["hello", "world"],
	["-p", "hi", "--model", "anthropic/claude", "--thinking", "high"],
	[
		"--provider",
		"openai",
		"--api-key",
		"k",
		"--system-prompt",
		"S",
		"--append-system-prompt",
		"a",
		"--append-system-prompt",
		"b",
	],
	["-c", "-r", "--no-session", "--session", "abc", "--session-id", "id1", "--fork", "f", "--session-dir", "/tmp/s"],
	["--name", "my session", "-n", "other"],
	["--models", "a, b ,c", "--tools", "read, ,bash", "--exclude-tools", "edit", "-nt", "-nbt"],
	["-t", "read", "-xt", "write"],
	["-e", "x.ts", "--extension", "y.ts", "-ne", "--skill", "s1", "--prompt-template", "p1", "--theme", "t1"],
	["--use-theme", "dark", "-ns", "-np", "--no-themes", "-nc", "--verbose", "--offline"],
	["--list-models"],
	["--list-models", "claude"],
	["--list-models", "-p"],
	["--tui-mode", "fullscreen"],
	["--tui-mode", "weird"],
	["--tui-mode"],
	["--mode", "json", "x"],
	["--mode", "bogus"],
	["--mode"],
	["--thinking", "extreme"],
	["--name"],
	["--use-theme"],
	["-x", "msg"],
	["--approve"],
	["--no-approve", "-a"],
	["-a", "-na"],
	["--help", "--version"],
	["-h", "-v"],
	["--export", "s.jsonl", "out.html"],
	["@a.txt", "msg", "@b.png"],
	["--", "-not-a-flag", "@file", "plain"],
	["--my-flag", "value", "msg"],
	["--my-flag=v1", "--other", "-p", "--third", "@f"],
	["--bool-flag", "--another"],
	["--model"],
	["--print=yes", "m"],
	["--model=a/b", "--thinking=high", "-e=x"],
	["--mode", "-p", "m"],
	["--use-theme", "--verbose"],
	["-p", "---dashes"],
	["-p", "@file", "m"],
	["--name", "--x"],
	["--list-models", "@f"],
	["--unknown", "@f", "--k", "-"],
	["-"],
	["--tools", "", "--exclude-tools", " , "],
	["--models", ""],
	["--foo", "--model=x", "--bar=1", "--tui-mode", "--print"],
	["--mode", "rpc", "--", "-", "---x"],
];

describe("parseArgs, as pi 0.87.1 reads the same arguments", () => {
	test("gives pi's Args for every argument list of the table", () => {
		const pi = piReference("parseArgs");
		if (!pi) return;
		const theirs = pi.run<unknown[]>(
			"return args.map((a) => { const r = pi.parseArgs(a); return { ...r, unknownFlags: [...r.unknownFlags] }; });",
			TABLE,
		);
		const ours = TABLE.map((argv) => {
			const r = parseArgs(argv);
			return JSON.parse(JSON.stringify({ ...r, unknownFlags: [...r.unknownFlags] }));
		});
		const differing = TABLE.flatMap((argv, i) =>
			Bun.deepEquals(ours[i], theirs[i]) ? [] : [{ argv, ours: ours[i], theirs: theirs[i] }],
		);
		expect(differing).toEqual([]);
	}, 60_000);

	test("reports problems as diagnostics and never throws", () => {
		const args = parseArgs(["-q", "--mode", "nope", "--thinking", "x", "msg"]);
		expect(args.messages).toEqual(["msg"]);
		expect(args.diagnostics).toEqual([
			{ type: "error", message: "Unknown option: -q" },
			{ type: "error", message: 'Invalid mode "nope". Valid values: text, json, rpc' },
			{
				type: "warning",
				message: 'Invalid thinking level "x". Valid values: off, minimal, low, medium, high, xhigh, max',
			},
		]);
	});
});
