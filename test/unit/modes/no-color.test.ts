import { expect, test } from "bun:test";
import { noColorRequested, stripColours } from "../../../src/modes/interactive/app/no-color.ts";

test("NO_COLOR (not empty, no FORCE_COLOR) asks for no colours", () => {
	expect(noColorRequested({ NO_COLOR: "1" })).toBe(true);
	expect(noColorRequested({ NO_COLOR: "" })).toBe(false);
	expect(noColorRequested({ NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
	expect(noColorRequested({})).toBe(false);
});

test("colours go, attributes and other sequences stay", () => {
	expect(stripColours("\x1b[38;2;1;2;3mred\x1b[39m")).toBe("red");
	expect(stripColours("\x1b[1;38;5;196mbold\x1b[22m")).toBe("\x1b[1mbold\x1b[22m");
	expect(stripColours("\x1b[48;2;10;20;30;7mcursor\x1b[0m")).toBe("\x1b[7mcursor\x1b[0m");
	expect(stripColours("\x1b[31;42mx\x1b[m")).toBe("x\x1b[m");
	expect(stripColours("\x1b[2K\x1b[?2026h plain")).toBe("\x1b[2K\x1b[?2026h plain");
});
