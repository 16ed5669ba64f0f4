import { describe, expect, test } from "bun:test";
import {
	type CommandContextSource,
	type ContextSource,
	createContextScope,
	createNoopUi,
	type ExtensionUIContext,
	type ReadonlySessionManager,
} from "../../../src/extensions/index.ts";

function source(calls: string[] = []) {
	let model: any = { id: "m1" };
	const src: ContextSource = {
		ui: () => createNoopUi() as unknown as ExtensionUIContext,
		mode: () => "print",
		hasUI: () => false,
		cwd: () => "/work",
		sessionManager: () => ({ getSessionName: () => "s" }) as unknown as ReadonlySessionManager,
		modelRegistry: () => ({}) as any,
		model: () => model,
		scopedModels: () => [],
		thinkingLevel: () => "high",
		signal: () => undefined,
		isIdle: () => true,
		isProjectTrusted: () => false,
		abort: () => calls.push("abort"),
		hasPendingMessages: () => false,
		shutdown: () => calls.push("shutdown"),
		getContextUsage: () => ({ tokens: 10, contextWindow: 100, percent: 10 }),
		compact: (options) => calls.push(`compact:${options?.customInstructions}`),
		getSystemPrompt: () => "prompt",
	};
	return {
		src,
		setModel: (next: any) => {
			model = next;
		},
	};
}

const commands = (calls: string[]): CommandContextSource => ({
	getSystemPromptOptions: () => ({ cwd: "/work" }),
	waitForIdle: async () => {
		calls.push("waitForIdle");
	},
	newSession: async () => ({ cancelled: false }),
	fork: async (entryId) => {
		calls.push(`fork:${entryId}`);
		return { cancelled: false };
	},
	navigateTree: async () => ({ cancelled: true }),
	switchSession: async () => ({ cancelled: false }),
	reload: async () => {},
});

const MEMBERS = [
	"ui",
	"mode",
	"hasUI",
	"cwd",
	"sessionManager",
	"modelRegistry",
	"model",
	"scopedModels",
	"thinkingLevel",
	"signal",
];
const METHODS = [
	"isIdle",
	"isProjectTrusted",
	"abort",
	"hasPendingMessages",
	"shutdown",
	"getContextUsage",
	"compact",
	"getSystemPrompt",
];
const COMMAND_METHODS = [
	"getSystemPromptOptions",
	"waitForIdle",
	"newSession",
	"fork",
	"navigateTree",
	"switchSession",
	"reload",
];

describe("extension context", () => {
	test("members read through the source; model is live", async () => {
		const calls: string[] = [];
		const { src, setModel } = source(calls);
		const scope = createContextScope(src, commands(calls));
		const ctx = scope.context();
		expect(ctx.cwd).toBe("/work");
		expect(ctx.mode).toBe("print");
		expect(ctx.hasUI).toBe(false);
		expect(ctx.thinkingLevel).toBe("high");
		expect(ctx.model?.id).toBe("m1");
		setModel({ id: "m2" });
		expect(ctx.model?.id).toBe("m2");
		expect(ctx.sessionManager.getSessionName()).toBe("s");
		ctx.compact({ customInstructions: "short" });
		ctx.abort();
		expect(ctx.getContextUsage()?.percent).toBe(10);
		expect(ctx.getSystemPrompt()).toBe("prompt");
		const cmd = scope.commandContext();
		await cmd.waitForIdle();
		expect(await cmd.fork("e1")).toEqual({ cancelled: false });
		expect(cmd.getSystemPromptOptions()).toEqual({ cwd: "/work" });
		expect(cmd.cwd).toBe("/work");
		expect(calls).toEqual(["compact:short", "abort", "waitForIdle", "fork:e1"]);
		expect(Object.keys(cmd).sort()).toEqual([...MEMBERS, ...METHODS, ...COMMAND_METHODS].sort());
	});

	test("without command actions, command-only methods fail clearly", () => {
		const cmd = createContextScope(source().src).commandContext();
		expect(() => cmd.reload()).toThrow("ctx.reload() is not available in this mode");
	});

	test("after invalidate, every member of an old ctx throws the stale error", () => {
		const calls: string[] = [];
		const scope = createContextScope(source(calls).src, commands(calls));
		const ctx = scope.context();
		const cmd = scope.commandContext();
		const replaced = scope.replacedSessionContext({
			sendMessage: async () => {},
			sendUserMessage: async () => {},
		});
		expect(scope.stale).toBe(false);
		scope.invalidate();
		scope.invalidate("second message is ignored");
		expect(scope.stale).toBe(true);
		for (const target of [ctx, cmd, replaced] as Record<string, any>[]) {
			for (const name of MEMBERS) expect(() => target[name]).toThrow("stale extension context");
			for (const name of METHODS) expect(() => target[name]()).toThrow("stale extension context");
		}
		for (const name of COMMAND_METHODS) {
			expect(() => (cmd as Record<string, any>)[name]()).toThrow("stale extension context");
		}
		expect(() => replaced.sendUserMessage("hi")).toThrow("stale extension context");
		expect(() => scope.assertActive()).toThrow("stale extension context");
		expect(calls).toEqual([]);
	});

	test("a replaced-session context adds awaitable messaging", async () => {
		const sent: string[] = [];
		const scope = createContextScope(source().src, commands([]));
		const ctx = scope.replacedSessionContext({
			sendMessage: async (message) => {
				sent.push(message.customType);
			},
			sendUserMessage: async (content) => {
				sent.push(String(content));
			},
		});
		await ctx.sendMessage({ customType: "note", content: "x", display: true });
		await ctx.sendUserMessage("hello");
		expect(sent).toEqual(["note", "hello"]);
		expect(ctx.cwd).toBe("/work");
	});
});
