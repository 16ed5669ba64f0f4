/**
 * CustomEditor as pi 0.87.1's: the working status drawn in the top border (`embedWorkingStatus`), compared with pi's
 * own CustomEditor on the same widths and hidden-line counts, and the order in which keys reach app actions.
 */
import { describe, expect, test } from "bun:test";
import { currentTheme } from "../../../src/resources/index.ts";
import { getEditorTheme } from "../../../src/sdk/theme-helpers.ts";
import {
	CustomEditor,
	KeybindingsManager,
	stripTerminalSequences,
	type TUI,
	TUI_KEYBINDINGS,
} from "../../../src/tui/index.ts";
import { piReference } from "../../support/pi-reference.ts";

const tui = { terminal: { rows: 24, columns: 80 }, requestRender() {} } as unknown as TUI;

/** Border cases: [width, hidden lines above, status text]. */
const CASES: Array<[number, number, string]> = [
	[40, 0, "⠋ Working..."],
	[40, 3, "⠋ Working..."],
	[24, 3, "⠋ Working on a long task"],
	[14, 0, "⠋ Working on it"],
	[6, 0, "⠋ Working"],
	[80, 12, "⠙ Thinking (esc to interrupt)"],
	[40, 0, ""],
];

/** An indicator like pi's: the status cut to the width, or just the spinner. */
const INDICATOR_SOURCE = `(status) => ({
	renderInBorder: (width) => status.length <= width ? status : status.slice(0, Math.max(1, width)),
	renderSpinnerInBorder: () => status.slice(0, 1),
})`;
// The same indicator source runs on both sides of the comparison.
const makeIndicator = new Function(`return ${INDICATOR_SOURCE}`)() as (status: string) => {
	renderInBorder(width: number): string;
	renderSpinnerInBorder(width: number): string;
};

class Probe extends CustomEditor {
	top(width: number, hidden: number): string {
		return this.renderTopBorder(width, hidden);
	}
}

describe("CustomEditor", () => {
	test("the working status in the top border matches pi 0.87.1's", () => {
		const reference = piReference("custom-editor border");
		const ours = CASES.map(([width, hidden, status]) => {
			const editor = new Probe(tui, getEditorTheme(), undefined, { embedWorkingStatus: true });
			editor.setWorkingStatusIndicator(makeIndicator(status));
			return stripTerminalSequences(editor.top(width, hidden));
		});
		expect(ours[0]).toBe(`── ⠋ Working... ${"─".repeat(24)}`);
		if (!reference) return;
		const theirs = reference.run<string[]>(
			`const makeIndicator = ${INDICATOR_SOURCE};
			pi.initTheme("dark");
			const tui = { terminal: { rows: 24, columns: 80 }, requestRender() {} };
			return args.map(([width, hidden, status]) => {
				const editor = new pi.CustomEditor(tui, { borderColor: (s) => s, selectList: pi.getSelectListTheme() }, {}, { embedWorkingStatus: true });
				editor.setWorkingStatusIndicator(makeIndicator(status));
				return editor.renderTopBorder(width, hidden).replace(/\\x1b\\[[0-9;]*m/g, "");
			});`,
			CASES,
		);
		expect(ours).toEqual(theirs);
	}, 120_000);

	test("without embedWorkingStatus the indicator is not drawn", () => {
		const editor = new Probe(tui, getEditorTheme(), undefined);
		editor.setWorkingStatusIndicator(makeIndicator("⠋ Working"));
		expect(stripTerminalSequences(editor.top(20, 0))).toBe("─".repeat(20));
		expect(editor.top(20, 0)).toBe(currentTheme().fg("borderMuted", "─".repeat(20)));
	});

	test("the paste-image key is taken even without a handler; history keys win over app actions", () => {
		const bindings = new KeybindingsManager(
			{ ...TUI_KEYBINDINGS, "app.model.cycleForward": { defaultKeys: "ctrl+p", description: "next model" } },
			{ "tui.editor.historyPrevious": "ctrl+p" },
		);
		const editor = new CustomEditor(tui, getEditorTheme(), bindings);
		editor.handleInput("\x16"); // ctrl+v
		expect(editor.getText()).toBe("");
		let cycled = 0;
		editor.onAction("app.model.cycleForward", () => cycled++);
		editor.handleInput("\x10"); // ctrl+p
		expect(cycled).toBe(0);
		const plain = new CustomEditor(tui, getEditorTheme(), new KeybindingsManager(TUI_KEYBINDINGS));
		plain.onAction("app.model.cycleForward", () => cycled++);
		plain.handleInput("\x10");
		expect(cycled).toBe(1);
	});
});
