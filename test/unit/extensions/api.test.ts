import { describe, expect, test } from "bun:test";
import {
	ACTION_METHODS,
	createEventBus,
	createExtensionApi,
	type ExtensionActions,
} from "../../../src/extensions/index.ts";

const make = () => createExtensionApi("/ext/x.ts", createEventBus());

describe("extension api, loading phase", () => {
	test("registration methods record what the factory registers", () => {
		const { api, registrations } = make();
		const pi = api as any;
		pi.on("session_start", () => {});
		pi.registerCommand("/hello", { handler: () => {} });
		pi.registerTool({ name: "t", description: "d", parameters: {}, execute: () => {} });
		pi.registerFlag("--plan", { type: "boolean", default: false });
		pi.registerShortcut("ctrl+x", { handler: () => {} });
		expect(registrations.handlers.get("session_start")).toHaveLength(1);
		expect([...registrations.commands.keys()]).toEqual(["hello"]);
		expect([...registrations.tools.keys()]).toEqual(["t"]);
		expect(registrations.flags.get("plan")).toEqual({ type: "boolean", default: false });
		expect(registrations.shortcuts.has("ctrl+x")).toBe(true);
	});
	test("action methods throw a clear error until bound", () => {
		const { api } = make();
		for (const method of ACTION_METHODS) {
			expect(() => (api as any)[method]()).toThrow(`pi.${method}() is not available while the extension is loading`);
		}
	});
	test("after bind, actions reach the runtime and queued providers are registered", () => {
		const handle = make();
		const pi = handle.api as any;
		pi.registerProvider("p1", { baseUrl: "x" });
		const calls: string[] = [];
		const actions = Object.fromEntries(
			ACTION_METHODS.map((m) => [m, () => calls.push(m)]),
		) as unknown as ExtensionActions;
		actions.registerProvider = (name: string) => calls.push(`provider:${name}`);
		handle.bind(actions);
		expect(calls).toEqual(["provider:p1"]);
		pi.setSessionName("n");
		pi.registerProvider("p2", {});
		expect(calls).toEqual(["provider:p1", "setSessionName", "provider:p2"]);
	});
	test("getFlag answers only this extension's flags, with parsed value over default", () => {
		const handle = make();
		const pi = handle.api as any;
		pi.registerFlag("who", { type: "string", default: "world" });
		expect(pi.getFlag("who")).toBe("world");
		handle.flagValues.set("who", "bob");
		expect(pi.getFlag("who")).toBe("bob");
		expect(pi.getFlag("other")).toBeUndefined();
	});
	test("exec runs a program and never rejects", async () => {
		const { api } = make();
		const ok = await (api as any).exec("sh", ["-c", "echo out; echo err >&2; exit 3"]);
		expect(ok).toEqual({ stdout: "out\n", stderr: "err\n", code: 3, killed: false });
		const missing = await (api as any).exec("definitely-not-a-program-xyz", []);
		expect(missing.code).not.toBe(0);
		const timed = await (api as any).exec("sleep", ["5"], { timeout: 50 });
		expect(timed.killed).toBe(true);
	});
});
