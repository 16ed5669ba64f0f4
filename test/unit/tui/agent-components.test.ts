/**
 * The agent components pi-coding-agent gives extensions, laid out as pi 0.87.1 lays them out: DynamicBorder is
 * never narrower than one column, BorderedLoader draws its borders in the theme's `border` colour, names the
 * `tui.select.cancel` keys in its hint, and leaves a blank row above the bottom border.
 */
import { describe, expect, test } from "bun:test";
import { currentTheme } from "../../../src/resources/index.ts";
import { DynamicBorder as SdkDynamicBorder } from "../../../src/sdk/pi-coding-agent.ts";
import { BorderedLoader, DynamicBorder, stripTerminalSequences, type TUI } from "../../../src/tui/index.ts";

const tui = { terminal: { rows: 24, columns: 80 }, requestRender() {} } as unknown as TUI;
/** A theme that shows which colour each piece was drawn in. */
const tagged = { fg: (color: string, text: string) => `<${color}>${text}</${color}>` };
const plain = (lines: string[]) => lines.map((line) => stripTerminalSequences(line).trimEnd());

describe("DynamicBorder", () => {
	test("is one column wide at width 0", () => {
		expect(new DynamicBorder().render(0)).toEqual(["─"]);
	});
	test("pi-coding-agent's DynamicBorder defaults to the theme's border colour", () => {
		expect(new SdkDynamicBorder().render(4)).toEqual([currentTheme().fg("border", "────")]);
		expect(new SdkDynamicBorder((text) => `[${text}]`).render(2)).toEqual(["[──]"]);
	});
});

describe("BorderedLoader", () => {
	test("border colour, cancel hint from the keybindings, blank row above the bottom border", () => {
		const loader = new BorderedLoader(tui, tagged, "Working");
		const lines = loader.render(20);
		expect(lines[0]).toBe(`<border>${"─".repeat(20)}</border>`);
		expect(lines.at(-1)).toBe(`<border>${"─".repeat(20)}</border>`);
		const rows = plain(loader.render(80).map((line) => line.replace(/<\/?[a-z]+>/g, "")));
		expect(rows.at(-2)).toBe("");
		expect(rows.at(-3)).toBe(" escape/ctrl+c cancel");
		expect(rows.at(-4)).toBe("");
		expect(loader.render(80).join("\n")).toContain("<dim>escape/ctrl+c</dim><muted> cancel</muted>");
		loader.dispose();
	});
	test("without cancelling: no hint, still a blank row above the bottom border", () => {
		const loader = new BorderedLoader(tui, tagged, "Working", { cancellable: false });
		const rows = plain(loader.render(80).map((line) => line.replace(/<\/?[a-z]+>/g, "")));
		expect(rows.join("\n")).not.toContain("cancel");
		expect(rows.at(-2)).toBe("");
		expect(rows.at(-3)).toContain("Working");
		expect(loader.signal.aborted).toBe(false);
		loader.dispose();
	});
});
