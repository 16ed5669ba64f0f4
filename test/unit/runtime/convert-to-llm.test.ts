import { describe, expect, test } from "bun:test";
import type { AgentMessage } from "../../../src/agent/index.ts";
import { convertToLlm } from "../../../src/runtime/index.ts";

describe("convertToLlm", () => {
	test("pi's own roles become user text; unknown roles are dropped; LLM and system roles pass through", () => {
		const user = { role: "user", content: "hi", timestamp: 1 };
		const messages = [
			user,
			{
				role: "bashExecution",
				command: "ls",
				output: "a\nb\n",
				exitCode: 2,
				cancelled: false,
				truncated: true,
				fullOutputPath: "/tmp/x",
				timestamp: 2,
			},
			{
				role: "bashExecution",
				command: "secret",
				output: "",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				excludeFromContext: true,
				timestamp: 3,
			},
			{
				role: "custom",
				customType: "note",
				content: "from an extension",
				display: true,
				details: { hidden: 1 },
				timestamp: 4,
			},
			{ role: "branchSummary", summary: "tried X", fromId: "abc", timestamp: 5 },
			{ role: "compactionSummary", summary: "did Y", tokensBefore: 1000, timestamp: 6 },
			{ role: "system", content: "prompt", timestamp: 7 },
			{ role: "weird", timestamp: 8 },
		] as unknown as AgentMessage[];
		const out = convertToLlm(messages);
		expect(out.map((m) => m.role)).toEqual(["user", "user", "user", "user", "user", "system"]);
		expect(out[5]).toBe(messages[6] as any);
		expect(out[0]).toBe(user as any);
		const text = (i: number) => (out[i]?.content as Array<{ text: string }>)[0]?.text ?? "";
		expect(text(1)).toContain("`ls`");
		expect(text(1)).toContain("a\nb");
		expect(text(1)).toContain("exit code 2");
		expect(text(1)).toContain("/tmp/x");
		expect(text(2)).toBe("from an extension");
		expect(JSON.stringify(out[2])).not.toContain("hidden");
		expect(text(3)).toContain("tried X");
		expect(text(4)).toContain("did Y");
	});
});
