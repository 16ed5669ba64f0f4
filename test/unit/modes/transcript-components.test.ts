/**
 * Transcript component behaviour the picture test (test/e2e/interactive-components-parity.test.ts) does not reach:
 * toggling one thinking run, and a tool call asking for a redraw once its edit preview has been read from disk.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	AssistantMessageComponent,
	createAllToolRenderers,
	ToolExecutionComponent,
} from "../../../src/modes/interactive/index.ts";
import { initTheme } from "../../../src/sdk/pi-coding-agent.ts";
import { linesOnScreen } from "../../helpers/screen.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

initTheme("dark");
const text = async (lines: string[]) => (await linesOnScreen(lines, 60)).map((line) => line.trimEnd());

describe("transcript components", () => {
	test("a thinking run can be shown and hidden on its own", async () => {
		const message = {
			content: [
				{ type: "thinking", thinking: "first thought" },
				{ type: "text", text: "answer" },
				{ type: "thinking", thinking: "second thought" },
			],
		};
		const component = new AssistantMessageComponent(message, true, undefined, "Thinking...");
		expect((await text(component.render(60))).filter((line) => line.includes("Thinking..."))).toHaveLength(2);
		component.toggleThinkingRun(1);
		const shown = await text(component.render(60));
		expect(shown).toContain(" second thought");
		expect(shown).toContain(" Thinking...");
		component.setHideThinkingBlock(true);
		expect(await text(component.render(60))).not.toContain(" second thought");
	});

	test("an edit call shows the diff it would make once its arguments are complete, then asks for a redraw", async () => {
		const cwd = makeTempDir();
		writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
		let redraws = 0;
		const ui = { requestRender: () => redraws++ };
		const args = { path: "a.txt", oldText: "two", newText: "three" };
		const tool = new ToolExecutionComponent("edit", "1", args, {}, createAllToolRenderers().edit, ui, cwd);
		expect((await text(tool.render(60))).join("\n")).not.toContain("three");
		tool.setArgsComplete();
		await new Promise((resolve) => setTimeout(resolve, 20));
		const screen = (await text(tool.render(60))).join("\n");
		expect(screen).toContain("-2 two");
		expect(screen).toContain("+2 three");
		expect(redraws).toBeGreaterThanOrEqual(2);
	});
});
