/**
 * One scripted use of pi-agent-core's `AgentHarness`, run against ours (Bun) and pi 0.87.1's (Node 22); the test
 * compares the JSON each produces. `core` is the pi-agent-core module, `ai` the pi-ai module (for the event stream),
 * `env` an execution environment rooted at `dir`. Ids become `#n` in order of first appearance, clock times `<t>`,
 * and storage sequence numbers are dropped (they count internal bookkeeping writes).
 */
import { call, echoTool, errOf, normalizer, res, setup, text, usage } from "./agent-harness-helpers.mjs";

export async function runHarnessScenario(core, ai, env, dir) {
	const norm = normalizer();
	const out = {};
	// 1. a run with a tool call, an invalid call and an unknown tool
	{
		const s = await setup(
			core,
			ai,
			[
				{
					content: [
						text("calling"),
						call("t1", "echo", { x: 1 }),
						call("t2", "echo", { x: "no" }),
						call("t3", "nope", {}),
					],
					stopReason: "toolUse",
				},
				{ content: [text("done")], stopReason: "stop" },
			],
			{ tools: [echoTool()] },
		);
		const lane = await s.harness.lane("main", s.ctx);
		const watch = await lane.watch(s.ctx);
		const watched = [];
		watch.start((e) => void watched.push(e.type));
		const result = await lane.prompt("hello", undefined, s.ctx);
		const after = await lane.watch(s.ctx);
		watch.unsubscribe();
		after.unsubscribe();
		out.basic = norm({
			open: s.open,
			result: res(result),
			stored: await lane.getResult(result.value.operationId, s.ctx),
			events: s.events,
			requests: s.requests,
			entries: await lane.findEntries(undefined, s.ctx),
			lanes: await s.harness.lanes(s.ctx),
			exec: await lane.inspectExecution(s.ctx),
			tip: await lane.getTipId(s.ctx),
			watchBefore: watch.snapshot,
			watched,
			watchAfter: after.snapshot,
		});
		await s.harness.close(s.ctx);
	}
	// 2. errors as results
	{
		const s = await setup(core, ai, [{ hang: true }]);
		const lane = await s.harness.lane("main", s.ctx);
		const r = {};
		r.empty = res(await lane.prompt("", undefined, s.ctx));
		r.skill = res(await lane.skill("nope", undefined, s.ctx));
		r.template = res(await lane.promptFromTemplate("nope", [], s.ctx));
		r.resume = res(await lane.resume(s.ctx));
		r.abortIdle = res(await lane.abort(s.ctx));
		r.badLane = await s.harness.lane("", s.ctx).catch(errOf);
		r.badTarget = await s.harness.lane("other", { createAt: "nope" }, s.ctx).catch(errOf);
		const running = lane.prompt("first", undefined, s.ctx);
		await new Promise((resolve) => setTimeout(resolve, 30));
		const midStream = await lane.watch(s.ctx);
		midStream.unsubscribe();
		r.midStream = midStream.snapshot;
		r.busy = res(await lane.prompt("second", undefined, s.ctx));
		r.abort = res(await lane.abort(s.ctx));
		r.aborted = res(await running);
		r.events = s.events;
		r.entries = await lane.findEntries(undefined, s.ctx);
		await s.harness.close(s.ctx);
		r.closedPrompt = res(await lane.prompt("x", undefined, s.ctx));
		r.closedSteer = res(await lane.steer("x", undefined, s.ctx));
		r.closedLane = await s.harness.lane("main", s.ctx).catch(errOf);
		out.errors = norm(r);
	}
	// 3. provider error, hooks, queues
	{
		const s = await setup(
			core,
			ai,
			[
				{ content: [call("t1", "echo", { x: 2 }), call("t2", "echo", { x: 3 })], stopReason: "toolUse" },
				{ content: [text("after tools")], stopReason: "stop" },
				{ content: [text("after follow-up")], stopReason: "stop" },
				{ content: [text("after hook follow-up")], stopReason: "stop" },
				{ content: [], stopReason: "error", errorMessage: "bad request" },
			],
			{
				tools: [
					echoTool(async () => {
						await lane.followUp("queued follow-up", undefined, s.ctx);
					}),
				],
				options: { toolExecution: "sequential" },
			},
		);
		const lane = await s.harness.lane("main", s.ctx);
		let ended = 0;
		s.harness.hooks.on("before_tool", (e) =>
			e.toolCallId === "t2" ? { block: { reason: "blocked by hook" } } : undefined,
		);
		s.harness.hooks.on("after_tool", (e) => ({ details: { patched: e.toolCallId } }));
		s.harness.hooks.on("before_run_end", () => (ended++ === 1 ? { followUp: "hook follow-up" } : undefined));
		s.harness.hooks.on("transform_context", (e) => ({ systemPrompt: `${e.systemPrompt}+T` }));
		const first = res(await lane.prompt("go", undefined, s.ctx));
		const failed = res(await lane.prompt([{ role: "user", content: "will fail", timestamp: 5 }], s.ctx));
		await lane.nextRun("next run text", undefined, s.ctx);
		const queued = await lane.steer("to cancel", undefined, s.ctx);
		const cancelled = res(await lane.cancelQueued(queued.value.entryId, s.ctx));
		const appended = await lane.appendCustomEntry("note", { a: 1 }, s.ctx);
		out.flow = norm({
			first,
			failed,
			cancelled,
			appended,
			events: s.events,
			requests: s.requests,
			entries: await lane.findEntries(undefined, s.ctx),
		});
		await s.harness.close(s.ctx);
	}
	// 5. abort while a tool runs, steering mid-run, a retried provider error, configuration and values
	{
		let release;
		const gate = new Promise((resolve) => {
			release = resolve;
		});
		const slow = {
			name: "slow",
			label: "Slow",
			description: "waits",
			parameters: { type: "object", properties: {} },
			execute: async (_id, _params, _onUpdate, _tc, _inv, context) => {
				release();
				await new Promise((resolve) => context.abortSignal?.addEventListener("abort", resolve, { once: true }));
				throw new Error("slow tool stopped");
			},
		};
		const s = await setup(
			core,
			ai,
			[
				{ content: [call("s1", "slow", {}), call("s2", "slow", {})], stopReason: "toolUse" },
				{ content: [call("e1", "echo", { x: 7 })], stopReason: "toolUse" },
				{ content: [text("steered")], stopReason: "stop" },
				{ content: [], stopReason: "error", errorMessage: "503 service unavailable" },
				{ content: [text("after retry")], stopReason: "stop" },
			],
			{
				tools: [
					slow,
					echoTool(async () => {
						await lane.steer("steer now", undefined, s.ctx);
					}),
				],
				options: { toolExecution: "sequential", retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } },
			},
		);
		const lane = await s.harness.lane("work", s.ctx);
		await lane.followUp("kept follow-up", undefined, s.ctx);
		const running = lane.prompt("run slow", undefined, s.ctx);
		await gate;
		const midTools = await lane.watch(s.ctx);
		midTools.unsubscribe();
		const aborted = res(await lane.abort(s.ctx));
		const ran = res(await running);
		const steered = res(await lane.prompt("steer me", undefined, s.ctx));
		const retried = res(await lane.prompt("retry me", undefined, s.ctx));
		await lane.setModel({ provider: "faux", modelId: "gone" }, s.ctx);
		const unavailable = res(await lane.prompt("no model", undefined, s.ctx));
		await lane.setModel({ provider: "faux", modelId: "m1" }, s.ctx);
		await lane.setThinkingLevel("high", s.ctx);
		await lane.setActiveTools(["echo"], s.ctx);
		await s.harness.setSteeringMode("one-at-a-time", s.ctx);
		await s.harness.setRetryPolicy({ enabled: false, maxRetries: 0, baseDelayMs: 0 }, s.ctx);
		const tip = await lane.getTipId(s.ctx);
		await s.harness.setLabel(tip, "marked", s.ctx);
		const usageRow = res(await lane.recordUsage(usage, { entryId: tip, details: { why: "test" } }, s.ctx));
		let idle = "no";
		await lane.runWhenIdle(async () => {
			idle = "ran";
		}, s.ctx);
		await lane.waitForIdle(s.ctx);
		out.more = norm({
			midTools: midTools.snapshot,
			aborted,
			ran,
			steered,
			retried,
			unavailable,
			usageRow,
			idle,
			label: await s.harness.getLabel(tip, s.ctx),
			thinking: await lane.getThinkingLevel(s.ctx),
			activeTools: await lane.getActiveTools(s.ctx),
			model: (await lane.getModel(s.ctx))?.id,
			steering: await s.harness.getSteeringMode(s.ctx),
			watch: await s.harness.watchSession(s.ctx).catch(errOf),
			events: s.events.filter((e) => e.type !== "message_update"),
			requests: s.requests,
			entries: await lane.findEntries(undefined, s.ctx),
			found: await lane.findEntry({ type: "message" }, s.ctx),
		});
		await s.harness.close(s.ctx);
	}
	// 6. throwing listeners and hooks become handler_error events; closing during a run
	{
		const s = await setup(core, ai, [{ content: [text("fine")], stopReason: "stop" }, { hang: true }]);
		const lane = await s.harness.lane("main", s.ctx);
		s.harness.events.on("turn_start", () => {
			throw new Error("listener broke");
		});
		s.harness.hooks.on("before_run", () => {
			throw new Error("hook broke");
		});
		s.harness.hooks.on("before_run", () => ({ messages: [{ role: "user", content: "injected", timestamp: 9 }] }));
		const first = res(await lane.prompt("with broken handlers", undefined, s.ctx));
		const hanging = lane.prompt("closing", undefined, s.ctx).then(res, errOf);
		await new Promise((resolve) => setTimeout(resolve, 30));
		const info = await s.harness.lanes(s.ctx);
		await s.harness.close(s.ctx);
		out.handlers = norm({
			first,
			info,
			hanging: await hanging,
			after: await lane.getTipId(s.ctx).catch(errOf),
			events: s.events.filter((e) => e.type !== "message_update"),
		});
	}
	// 4. JSONL: persist, reopen, a run left open is listed and resumed
	{
		const repo = new core.JsonlSessionRepo({ fileSystem: env, sessionsRoot: `${dir}/sessions` });
		const a = await setup(core, ai, [], {
			repo,
			createOptions: { id: "01900000-0000-7000-8000-000000000001", cwd: dir },
		});
		const lane = await a.harness.lane("main", a.ctx);
		await a.harness.setName("named", a.ctx);
		const accepted = res(await lane.accept({ kind: "prompt", prompt: "left open" }, a.ctx));
		await a.harness.close(a.ctx);
		const [meta] = await repo.list({ cwd: dir }, a.ctx);
		const session = await repo.open(meta, a.ctx);
		const b = await setup(core, ai, [{ content: [text("resumed")], stopReason: "stop" }], { repo, session });
		const lane2 = await b.harness.lane("main", b.ctx);
		const resumed = res(await lane2.resume(b.ctx));
		out.jsonl = norm({
			accepted,
			open: b.open,
			name: await b.harness.getName(b.ctx),
			resumed,
			events: b.events,
			entries: await lane2.findEntries(undefined, b.ctx),
		});
		await b.harness.close(b.ctx);
	}
	// 7. a crash mid-tool and mid-stream: a copy of the session file taken then is reopened and resumed
	{
		const { copyFileSync, mkdirSync } = await import("node:fs");
		const { basename, dirname } = await import("node:path");
		let started;
		const running = new Promise((resolve) => {
			started = resolve;
		});
		const hang = {
			name: "hang",
			label: "Hang",
			description: "never finishes",
			parameters: { type: "object", properties: {} },
			execute: async (_id, _p, onUpdate, _tc, _inv, context) => {
				onUpdate({ content: [text("half done")], details: { step: 1 } }, { checkpoint: true });
				started();
				await new Promise((resolve) => context.abortSignal?.addEventListener("abort", resolve, { once: true }));
				return { content: [text("stopped")], details: {} };
			},
		};
		const copies = [];
		const crashAt = async (s, label) => {
			await new Promise((resolve) => setTimeout(resolve, 100));
			const [meta] = await s.repo.list({ cwd: dir }, s.ctx);
			const root = `${dir}/crash-${label}`;
			const folder = `${root}/${basename(dirname(meta.path))}`;
			mkdirSync(folder, { recursive: true });
			copyFileSync(meta.path, `${folder}/${basename(meta.path)}`);
			copies.push(root);
		};
		const resumeCopy = async (root, steps) => {
			const repo = new core.JsonlSessionRepo({ fileSystem: env, sessionsRoot: root });
			const [meta] = await repo.list(undefined, core.BACKGROUND_CONTEXT);
			const session = await repo.open(meta, core.BACKGROUND_CONTEXT);
			const r = await setup(core, ai, steps, {
				repo,
				session,
				tools: [hang],
				options: { retry: { enabled: true, maxRetries: 1, baseDelayMs: 1 } },
			});
			const lane = await r.harness.lane("main", r.ctx);
			const resumed = res(await lane.resume(r.ctx));
			const result = norm({
				open: r.open,
				resumed,
				events: r.events.filter((e) => e.type !== "message_update"),
				requests: r.requests,
				entries: await lane.findEntries(undefined, r.ctx),
			});
			await r.harness.close(r.ctx);
			return result;
		};
		const repo = new core.JsonlSessionRepo({ fileSystem: env, sessionsRoot: `${dir}/crashing` });
		const a = await setup(core, ai, [{ content: [call("h1", "hang", {})], stopReason: "toolUse" }, { hang: true }], {
			repo,
			createOptions: { id: "01900000-0000-7000-8000-000000000002", cwd: dir },
			tools: [hang],
		});
		const lane = await a.harness.lane("main", a.ctx);
		const first = lane.prompt("crash in a tool", undefined, a.ctx).then(res, errOf);
		await running;
		await crashAt(a, "tool");
		await lane.abort(a.ctx);
		await first;
		const second = lane.prompt("crash while streaming", undefined, a.ctx).then(res, errOf);
		await crashAt(a, "stream");
		await a.harness.close(a.ctx);
		await second;
		out.crash = {
			tool: await resumeCopy(copies[0], [{ content: [text("after the interrupted tool")], stopReason: "stop" }]),
			stream: await resumeCopy(copies[1], [{ content: [text("after the interrupted stream")], stopReason: "stop" }]),
		};
	}
	// 8. driving without waiting for a retry returns a waiting outcome; abort then settles the run
	{
		const s = await setup(core, ai, [{ content: [], stopReason: "error", errorMessage: "429 rate limit" }], {
			options: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 60_000 } },
		});
		const lane = await s.harness.lane("main", s.ctx);
		const admission = res(await lane.accept({ kind: "prompt", prompt: "wait for it" }, s.ctx));
		const waiting = res(await lane.drive({ operationId: admission.value.operationId }, s.ctx));
		const exec = await lane.inspectExecution(s.ctx);
		const aborted = res(await lane.abort(s.ctx));
		const settled = res(await lane.drive({ operationId: admission.value.operationId }, s.ctx));
		const mismatch = res(await lane.drive({ operationId: "01900000-0000-7000-8000-00000000dead" }, s.ctx));
		out.waiting = norm({
			admission,
			waiting,
			exec,
			aborted,
			settled,
			mismatch,
			events: s.events.filter((e) => e.type !== "message_update"),
		});
		await s.harness.close(s.ctx);
	}
	// 9. skills and prompt templates from the harness resources; messages as the prompt; appends while idle
	{
		const resources = {
			skills: [
				{ name: "lint", description: "Lint code", content: "Run the linter.", filePath: "/skills/lint/SKILL.md" },
			],
			promptTemplates: [{ name: "fix", description: "Fix", content: "Fix $1 in $@" }],
		};
		const s = await setup(
			core,
			ai,
			[
				{ content: [text("skill done")], stopReason: "stop" },
				{ content: [text("template done")], stopReason: "stop" },
				{ content: [text("messages done")], stopReason: "stop" },
			],
			{ options: { resources } },
		);
		const lane = await s.harness.lane("main", s.ctx);
		const appended = await lane.appendMessage({ role: "user", content: "appended first", timestamp: 3 }, s.ctx);
		const skill = res(await lane.skill("lint", "only src", s.ctx));
		const template = res(await lane.promptFromTemplate("fix", ["bug", "file.ts"], s.ctx));
		const messages = res(
			await lane.prompt(
				[
					{ role: "user", content: "one", timestamp: 1 },
					{ role: "user", content: "two", timestamp: 2 },
				],
				s.ctx,
			),
		);
		const pending = await lane
			.appendMessage({ role: "assistant", content: [], stopReason: "pending" }, s.ctx)
			.catch(errOf);
		out.resources = norm({
			appended,
			skill,
			template,
			messages,
			pending,
			requests: s.requests,
			entries: await lane.findEntries(undefined, s.ctx),
		});
		await s.harness.close(s.ctx);
	}
	return out;
}
