import { describe, expect, test } from "bun:test";
import {
	decodeKittyPrintable,
	decodePrintableKey,
	isKeyRelease,
	isKeyRepeat,
	Key,
	matchesKey,
	parseKey,
} from "../../../src/tui/index.ts";

describe("legacy input", () => {
	test("named keys", () => {
		expect(parseKey("\r")).toBe("enter");
		expect(parseKey("\x1b")).toBe("escape");
		expect(parseKey("\t")).toBe("tab");
		expect(parseKey("\x7f")).toBe("backspace");
		expect(parseKey(" ")).toBe("space");
		expect(parseKey("\x1b[Z")).toBe("shift+tab");
		expect(parseKey("\x1b[3~")).toBe("delete");
		expect(parseKey("\x1b[5~")).toBe("pageUp");
		expect(parseKey("\x1bOP")).toBe("f1");
		expect(parseKey("\x1b[24~")).toBe("f12");
	});
	test("arrows in normal and application mode, with xterm modifiers", () => {
		expect(parseKey("\x1b[A")).toBe("up");
		expect(parseKey("\x1b[B")).toBe("down");
		expect(parseKey("\x1bOC")).toBe("right");
		expect(parseKey("\x1bOD")).toBe("left");
		expect(parseKey("\x1b[1;5C")).toBe("ctrl+right");
		expect(parseKey("\x1b[1;2A")).toBe("shift+up");
		expect(parseKey("\x1b[1;3D")).toBe("alt+left");
		expect(parseKey("\x1b[H")).toBe("home");
		expect(parseKey("\x1b[F")).toBe("end");
	});
	test("letters, uppercase as shift, ctrl and alt combinations", () => {
		expect(parseKey("a")).toBe("a");
		expect(parseKey("A")).toBe("A"); // as pi-tui: a legacy uppercase letter is itself
		expect(parseKey("\x03")).toBe("ctrl+c");
		expect(parseKey("\x01")).toBe("ctrl+a");
		expect(parseKey("\x1bx")).toBe("alt+x");
		expect(parseKey("\x1bb")).toBe("alt+left"); // readline word-left, as pi-tui
		expect(matchesKey("\x1bb", "alt+b")).toBe(true);
		expect(parseKey("\x1b\x7f")).toBe("alt+backspace");
		expect(parseKey("\x1b\r")).toBe("alt+enter");
		expect(parseKey("\x1b\x03")).toBe("ctrl+alt+c");
		expect(parseKey("\x1f")).toBe("ctrl+-");
	});
	test("non-keys parse to undefined", () => {
		expect(parseKey("")).toBeUndefined();
		expect(parseKey("hello")).toBeUndefined();
		expect(parseKey("\x1b[200~")).toBeUndefined();
	});
	test("matchesKey with strings and Key helpers", () => {
		expect(matchesKey("\r", Key.enter)).toBe(true);
		expect(matchesKey("\r", "return")).toBe(true);
		expect(matchesKey("\x1b", Key.escape)).toBe(true);
		expect(matchesKey("\x1b", "esc")).toBe(true);
		expect(matchesKey("\x03", Key.ctrl("c"))).toBe(true);
		expect(matchesKey("\x03", "ctrl+d")).toBe(false);
		expect(matchesKey("\x1b[Z", Key.shift("tab"))).toBe(true);
		expect(matchesKey("\t", "tab")).toBe(true);
		expect(matchesKey("\t", "shift+tab")).toBe(false);
		expect(matchesKey("W", Key.shift("w"))).toBe(true);
		expect(matchesKey("w", Key.shift("w"))).toBe(false);
		expect(matchesKey("q", "q")).toBe(true);
		expect(matchesKey("\x1b[A", Key.up)).toBe(true);
		expect(matchesKey("\x1b[1;5A", Key.up)).toBe(false);
		expect(matchesKey("\x1bOP", Key.f1)).toBe(true);
		// as pi-tui: function keys match only unmodified
		expect(matchesKey("\x1b[1;6P", Key.ctrlShift("f1"))).toBe(false);
	});
	test("legacy input is never a release or repeat", () => {
		expect(isKeyRelease("a")).toBe(false);
		expect(isKeyRelease("\x1b[A")).toBe(false);
		expect(isKeyRepeat("a")).toBe(false);
	});
});

describe("kitty keyboard protocol (CSI u)", () => {
	test("plain and modified keys", () => {
		expect(parseKey("\x1b[97u")).toBe("a");
		expect(parseKey("\x1b[97;5u")).toBe("ctrl+a");
		expect(parseKey("\x1b[99;5u")).toBe("ctrl+c");
		expect(parseKey("\x1b[112;6u")).toBe("shift+ctrl+p");
		expect(parseKey("\x1b[112;7u")).toBe("ctrl+alt+p");
		expect(parseKey("\x1b[107;9u")).toBe("super+k");
		expect(parseKey("\x1b[13u")).toBe("enter");
		expect(parseKey("\x1b[13;2u")).toBe("shift+enter");
		expect(parseKey("\x1b[27u")).toBe("escape");
		expect(parseKey("\x1b[9;2u")).toBe("shift+tab");
		expect(parseKey("\x1b[127u")).toBe("backspace");
		expect(parseKey("\x1b[32u")).toBe("space");
		expect(parseKey("\x1b[57414u")).toBe("enter");
	});
	test("caps lock and num lock bits are ignored", () => {
		expect(parseKey("\x1b[97;69u")).toBe("ctrl+a");
		expect(matchesKey("\x1b[99;133u", "ctrl+c")).toBe(true);
	});
	test("matchesKey in any modifier order", () => {
		expect(matchesKey("\x1b[117;6u", Key.ctrlShift("u"))).toBe(true);
		expect(matchesKey("\x1b[117;6u", "shift+ctrl+u")).toBe(true);
		expect(matchesKey("\x1b[117;6u", "ctrl+u")).toBe(false);
		expect(matchesKey("\x1b[99;5u", Key.ctrl("c"))).toBe(true);
	});
	test("a shifted symbol is shift + its key; the typed text is the shifted character", () => {
		expect(parseKey("\x1b[49:33;2u")).toBe("shift+1");
		expect(matchesKey("\x1b[49:33;2u", "shift+1")).toBe(true);
		expect(matchesKey("\x1b[49:33;2u", "!")).toBe(false);
		expect(decodeKittyPrintable("\x1b[49:33;2u")).toBe("!");
	});
	test("press, repeat and release events", () => {
		expect(isKeyRelease("\x1b[97;1:3u")).toBe(true);
		expect(isKeyRelease("\x1b[97;1:1u")).toBe(false);
		expect(isKeyRepeat("\x1b[97;1:2u")).toBe(true);
		expect(isKeyRelease("\x1b[1;1:3A")).toBe(true);
		expect(isKeyRelease("\x1b[3;1:3~")).toBe(true);
		expect(matchesKey("\x1b[97;1:3u", "a")).toBe(true);
		expect(matchesKey("\x1b[1;1:3D", Key.left)).toBe(true);
		expect(matchesKey("\x1b[32;1:3u", Key.space)).toBe(true);
	});
	test("decodeKittyPrintable returns typed text for plain and shifted keys only", () => {
		expect(decodeKittyPrintable("\x1b[97u")).toBe("a");
		expect(decodeKittyPrintable("\x1b[97:65;2u")).toBe("A");
		expect(decodePrintableKey("\x1b[97;2u")).toBe("A");
		expect(decodeKittyPrintable("\x1b[32u")).toBe(" ");
		expect(decodeKittyPrintable("\x1b[97;5u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[13u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[97;1:3u")).toBe("a"); // releases are filtered by the TUI, not here
		expect(decodeKittyPrintable("a")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[97;2;65u")).toBeUndefined(); // associated text is not read, as pi-tui
	});
	test("xterm modifyOtherKeys form", () => {
		expect(parseKey("\x1b[27;5;97~")).toBe("ctrl+a");
		expect(parseKey("\x1b[27;2;13~")).toBe("shift+enter");
	});
});

describe("decodePrintableKey (ours, for Editor and Input)", () => {
	test("legacy text, kitty and modifyOtherKeys printables; control keys type nothing", () => {
		expect(decodePrintableKey("héllo")).toBe("héllo");
		expect(decodePrintableKey("\x1b[97u")).toBe("a");
		expect(decodePrintableKey("\x1b[49:33;2u")).toBe("!");
		expect(decodePrintableKey("\x1b[27;2;65~")).toBe("A");
		expect(decodePrintableKey("\x1b[27;5;97~")).toBeUndefined();
		expect(decodePrintableKey("\x1b[127u")).toBeUndefined();
		expect(decodePrintableKey("\x1b[13u")).toBeUndefined();
		expect(decodePrintableKey("\x7f")).toBeUndefined();
		expect(decodePrintableKey("\x1bx")).toBeUndefined();
		expect(decodePrintableKey("")).toBeUndefined();
	});
});
