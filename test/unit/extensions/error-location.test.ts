import { expect, test } from "bun:test";
import { thrownAt } from "../../../src/extensions/error-location.ts";

const error = (stack: string) => Object.assign(new Error("boom"), { stack });
// Extension files are under "/ext"; "/$bunfs/root/pi" is the virtual root Bun gives a compiled binary's own code
// (the same on every machine), which is how pi's frames look in a stack.

test("the first frame in the extension's folder wins over library and pi frames", () => {
	const stack = [
		"Error: boom",
		"    at helper (/ext/node_modules/lib/index.js:3:9)",
		"    at <anonymous> (/ext/guard.ts:12:11)",
		"    at emit (/$bunfs/root/pi:1:2345)",
	].join("\n");
	expect(thrownAt(error(stack), "/ext/guard.ts")).toBe("/ext/guard.ts:12:11");
	// A package extension is a folder; without a frame of its own, the library's frame is the place.
	expect(thrownAt(error(stack), "/ext")).toBe("/ext/guard.ts:12:11");
	expect(thrownAt(error(stack), "/elsewhere/x.ts")).toBe("/ext/node_modules/lib/index.js:3:9");
});

test("frames without parentheses and file URLs are read; pi's own frames never count", () => {
	expect(thrownAt(error("Error: x\n    at file:///ext/b.ts:4:2"), "/ext/b.ts")).toBe("/ext/b.ts:4:2");
	expect(thrownAt(error("Error: x\n    at emit (/$bunfs/root/pi:1:2)\n    at native"), "/ext/b.ts")).toBeUndefined();
	expect(thrownAt("a string", "/ext/b.ts")).toBeUndefined();
});
