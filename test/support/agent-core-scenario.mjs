/**
 * One scripted use of pi-agent-core's exports, run against ours (Bun) and pi 0.87.1's (Node 22); the test compares
 * the JSON each produces. `core` is the module, `env` an execution environment rooted at `dir` (a fresh temp folder).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const scrub = (value, dir) =>
	JSON.parse(
		JSON.stringify(value ?? null)
			.replaceAll(dir, "<dir>")
			.replaceAll(dir.replace(/^\//, "").replace(/[/\\:]/g, "-"), "<dir>")
			.replace(/\/[^"\s\]]*(pi-bash-[0-9a-z]+|pi-output-[0-9a-f-]+)\.log/g, "<spill>"),
	);

export async function runScenario(core, env, dir) {
	const out = {};
	const ctx = core.BACKGROUND_CONTEXT;
	// results and errors
	const e = new core.LaneBusy({ lane: "main", operationId: "op1", operationKind: "run", message: "busy" });
	out.tagged = [e.toJSON(), e.name, e._tag, e.message, core.LaneBusy.is(e), core.NoActiveRun.is(e), e instanceof Error];
	out.match = core.matchError(e, { LaneBusy: (x) => `busy:${x.lane}` });
	out.results = [
		core.ok(1),
		core.err("x"),
		core.Result.ok(2),
		core.Result.isErr(core.Result.err(3)),
		core.getOrUndefined(core.ok({ a: 1 })),
		core.getOrUndefined(core.err(1)),
	];
	try {
		core.getOrThrow(core.err(new Error("boom")));
	} catch (error) {
		out.thrown = error.message;
	}
	out.toError = [core.toError("s").message, core.toError({ a: 1 }).message, core.toError(5).message];
	out.errors = [
		[new core.FileError("not_found", "missing", "/x").code, new core.FileError("not_found", "m").name],
		[new core.ExecutionError("timeout", "late").code, new core.ExecutionError("timeout", "late").name],
		[
			new core.HarnessClosed().message,
			new core.HarnessFault("f", 1).cause,
			new core.SliceNotImplemented("compact").message,
		],
		new core.Closed({ message: "closed" }).toJSON(),
		new core.UnknownSkill({ name: "s", message: "no" }).toJSON(),
	];
	// contexts
	const key = core.createContextKey("k");
	const c1 = core.withContextValue(key, 42, ctx);
	const { context: c2, cancel } = core.withCancel(c1);
	out.context = [String(c1), String(c2), c2.value(key), ctx.abortSignal === undefined, c2.abortSignal?.aborted];
	cancel(new Error("stop"));
	out.cancelled = [
		c2.abortSignal?.aborted,
		core.withoutAbortSignal(c2).abortSignal === undefined,
		String(core.TODO_CONTEXT),
	];
	out.awaitCancelled = await core.awaitWithContext(new Promise(() => {}), c2).catch((error) => error.message);
	out.awaitOk = await core.awaitWithContext(
		Promise.resolve(7),
		core.withAbortSignal(new AbortController().signal, ctx),
	);
	// telemetry
	const telemetry = new core.InMemoryTelemetryContext();
	const start = core.createTypedSpanStarter(telemetry, core.AGENT_TELEMETRY_SCHEMAS);
	await start("pi.ai.request", { "pi.ai.provider": "p", skip: undefined }, async (span, child) => {
		span.addEvent("e", { n: 1 });
		span.setAttributes({ extra: [1, 2] });
		await child("inner", {}, () => "x");
		await child("bad", {}, () => {
			throw new TypeError("nope");
		}).catch(() => {});
	});
	const tctx = core.withTelemetryContext(telemetry, ctx);
	await core.startHarnessSpan(
		"pi.harness.run",
		{ a: "b" },
		(_span, inner) => core.getTelemetryContext(inner) !== telemetry,
		tctx,
	);
	out.spans = telemetry.getSpans();
	// The vocabulary: every name, type and rule (descriptions are prose and may be worded differently).
	const structure = (schema) =>
		JSON.parse(JSON.stringify(schema, (k, v) => (k === "description" || k === "errorWhen" ? undefined : v)));
	out.schemas = [
		structure(core.AI_TELEMETRY_SCHEMA),
		structure(core.HARNESS_TELEMETRY_SCHEMA),
		core.AGENT_TELEMETRY_SCHEMAS.length,
		core.AGENT_TELEMETRY_SCHEMAS[1] === core.HARNESS_TELEMETRY_SCHEMA,
	];
	out.aiSpan = await core.startAiSpan(
		"pi.ai.request",
		{},
		(_span, inner) => core.getTelemetryContext(inner) !== core.NOOP_TELEMETRY_CONTEXT,
		tctx,
	);
	out.noop = [
		await core.NOOP_TELEMETRY_CONTEXT.startSpan({ name: "n" }, () => 3),
		core.getTelemetryContext(ctx) === core.NOOP_TELEMETRY_CONTEXT,
	];
	// messages and text helpers
	const ts = 1700000000000;
	out.convert = core.convertToLlm([
		{ role: "system", content: "sys", timestamp: ts },
		{
			role: "bashExecution",
			command: "ls",
			output: "a\nb",
			exitCode: 2,
			cancelled: false,
			truncated: true,
			fullOutputPath: "/tmp/o",
			timestamp: ts,
		},
		{ role: "bashExecution", command: "x", output: "", exitCode: 0, cancelled: true, truncated: false, timestamp: ts },
		{
			role: "bashExecution",
			command: "y",
			output: "",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: ts,
			excludeFromContext: true,
		},
		{ role: "custom", customType: "c", content: "hi", display: true, timestamp: ts },
		{ role: "branchSummary", summary: "B", fromId: null, timestamp: ts },
		{ role: "compactionSummary", summary: "C", tokensBefore: 5, timestamp: ts },
		{ role: "weird", timestamp: ts },
		{ role: "user", content: "u", timestamp: ts },
	]);
	out.args = ["a 'b c' \"d e\"\tf", "", "  x  ", "'unterminated"].map(core.parseCommandArgs);
	// biome-ignore lint/suspicious/noTemplateCurlyInString: prompt-template placeholders, not a JS template
	out.subst = core.substituteArgs("$1-$2-$3 [$@] [$ARGUMENTS] [${@:2}] [${@:2:1}] [${@:0}] $10", ["a", "b", "c"]);
	out.template = core.formatPromptTemplateInvocation({ name: "t", content: "do $1" }, ["it"]);
	const skill = { name: "s", description: "d <&>\"'", content: "body", filePath: "/x/s/SKILL.md" };
	out.skillInvocation = [
		core.formatSkillInvocation(skill),
		core.formatSkillInvocation({ ...skill, filePath: "/SKILL.md" }, "more"),
	];
	// The introduction is each implementation's own prose; the listing from <available_skills> on must match.
	const listing = (text) => text.slice(text.indexOf("<available_skills>"));
	out.skillsPrompt = [
		listing(core.formatSkillsForSystemPrompt([skill, { ...skill, name: "h", disableModelInvocation: true }])),
		core.formatSkillsForSystemPrompt([]),
	];
	// truncation and shell output
	const long = Array.from({ length: 2500 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}`).join("\n");
	out.truncate = [
		core.truncateHead(long),
		core.truncateTail(long),
		core.truncateTail("x".repeat(60000)),
		core.truncateHead("y".repeat(60000), { maxBytes: 100 }),
		core.truncateLine("z".repeat(600)),
	].map((r) => ({ ...r, content: r.content?.length ?? r.text?.length }));
	out.sizes = [
		core.formatSize(10),
		core.formatSize(2048),
		core.formatSize(5 * 1024 * 1024),
		core.utf8ByteLength("aé😀"),
		core.DEFAULT_MAX_BYTES,
		core.DEFAULT_MAX_LINES,
		core.GREP_MAX_LINE_LENGTH,
	];
	out.sanitize = core.sanitizeBinaryOutput("a\x00b\x1bc\td\ne\r\ufffa");
	const meta = { truncation: { truncated: false } };
	let view = core.applyShellOutputUpdate(undefined, { kind: "append", text: "ab", metadata: meta });
	view = core.applyShellOutputUpdate(view, { kind: "slide", drop: 1, text: "cd", metadata: meta });
	view = core.applyShellOutputUpdate(view, { kind: "metadata", metadata: { ...meta, spillPath: "/p" } });
	out.views = view;
	out.bashText = core.bashExecutionToText({
		command: "c",
		output: "",
		exitCode: undefined,
		cancelled: false,
		truncated: false,
	});
	// loaders
	const skills = join(dir, "skills");
	mkdirSync(join(skills, "good"), { recursive: true });
	writeFileSync(
		join(skills, "good", "SKILL.md"),
		"---\nname: good\ndescription: Does good things\n---\n\n# Good\nBody\n",
	);
	mkdirSync(join(skills, "Bad_Name"), { recursive: true });
	writeFileSync(join(skills, "Bad_Name", "SKILL.md"), "---\ndescription: bad\n---\nx");
	mkdirSync(join(skills, "nodesc"), { recursive: true });
	writeFileSync(join(skills, "nodesc", "SKILL.md"), "no frontmatter");
	mkdirSync(join(skills, "ignored"), { recursive: true });
	writeFileSync(join(skills, "ignored", "SKILL.md"), "---\ndescription: hidden\n---\nx");
	writeFileSync(join(skills, ".gitignore"), "ignored/\n");
	writeFileSync(
		join(skills, "root.md"),
		"---\ndescription: a root skill\ndisable-model-invocation: true\n---\nroot body",
	);
	writeFileSync(join(skills, "plain.md"), "no description here");
	mkdirSync(join(skills, "nested", "deep"), { recursive: true });
	writeFileSync(join(skills, "nested", "deep", "SKILL.md"), "---\nname: deep\ndescription: nested\n---\nd");
	writeFileSync(join(skills, "nested", "loose.md"), "---\ndescription: not loaded below the top\n---\nx");
	out.skills = scrub(await core.loadSkills(env, [skills, join(dir, "missing")], ctx), dir);
	out.sourced = scrub(
		await core.loadSourcedSkills(
			env,
			[{ path: skills, source: { s: 1 } }],
			(s, source) => ({ ...s, tag: source.s }),
			ctx,
		),
		dir,
	);
	const prompts = join(dir, "prompts");
	mkdirSync(prompts, { recursive: true });
	writeFileSync(join(prompts, "b.md"), "---\ndescription: Bee\n---\nBody $1");
	writeFileSync(join(prompts, "a.md"), `\n\n${"A".repeat(70)}\nmore`);
	writeFileSync(join(prompts, "c.txt"), "skip");
	writeFileSync(join(prompts, "bad.md"), "---\n: [\n---\nx");
	const loadedPrompts = await core.loadPromptTemplates(env, [prompts, join(prompts, "b.md"), join(dir, "none")], ctx);
	// YAML error wording comes from the parser; the code and path are what count.
	for (const d of loadedPrompts.diagnostics) d.message = d.code === "parse_failed" ? "<yaml error>" : d.message;
	out.prompts = scrub(loadedPrompts, dir);
	// tools
	const tc = { env };
	const inv = {
		invocationId: "i",
		operationId: "o",
		turnId: "t",
		getMemo: async () => undefined,
		setMemo: async () => {},
	};
	const updates = [];
	const onUpdate = (u, o) => updates.push([u, o]);
	const write = core.createWriteTool();
	const read = core.createReadTool();
	const edit = core.createEditTool();
	const bash = core.createBashTool({ commandPrefix: "export GREETING=hi" });
	// Descriptions are prose, ours in our own words: only that each tool has one is compared.
	out.toolMeta = [write, read, edit, bash].map((t) => [
		t.name,
		t.label,
		typeof t.description === "string" && t.description.length > 40,
	]);
	out.write = await write.execute("1", { path: "f.txt", content: "one\ntwo\nthree\n" }, onUpdate, tc, inv, ctx);
	out.read = await read.execute("2", { path: "f.txt", offset: 2, limit: 1 }, onUpdate, tc, inv, ctx);
	out.readMissing = await read
		.execute("2", { path: "nope.txt" }, onUpdate, tc, inv, ctx)
		.catch((error) => error.message.replaceAll(dir, "<dir>").split(",")[0]);
	// A 1×1 PNG: sent as an attachment.
	writeFileSync(
		join(dir, "dot.png"),
		Buffer.from(
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
			"base64",
		),
	);
	out.readImage = await read.execute("2", { path: "dot.png" }, onUpdate, tc, inv, ctx);
	const bmp = Buffer.alloc(58);
	bmp.write("BM", 0, "latin1");
	bmp.writeUInt32LE(54, 10);
	bmp.writeUInt32LE(40, 14);
	bmp.writeUInt16LE(1, 26);
	bmp.writeUInt16LE(24, 28);
	writeFileSync(join(dir, "pic.bmp"), bmp);
	out.readBmp = await read.execute("2", { path: "pic.bmp" }, onUpdate, tc, inv, ctx);
	const processed = core.createReadTool({
		autoResizeImages: false,
		imageProcessor: async (bytes, mimeType, options) =>
			mimeType === "image/bmp"
				? { ok: false, message: `no ${bytes.length}` }
				: { ok: true, data: "AAAA", mimeType: "image/webp", hints: [`resize=${options.autoResizeImages}`] },
	});
	out.readProcessed = [
		await processed.execute("2", { path: "dot.png" }, onUpdate, tc, inv, ctx),
		await processed.execute("2", { path: "pic.bmp" }, onUpdate, tc, inv, ctx),
	];
	out.edit = await edit.execute(
		"3",
		{ path: "f.txt", edits: [{ oldText: "two", newText: "TWO" }] },
		onUpdate,
		tc,
		inv,
		ctx,
	);
	out.editNoNl = await (async () => {
		await write.execute("1", { path: "g.txt", content: "a\nb" }, onUpdate, tc, inv, ctx);
		return edit.execute("3", { path: "g.txt", edits: [{ oldText: "b", newText: "c" }] }, onUpdate, tc, inv, ctx);
	})();
	out.editFail = await edit
		.execute("3", { path: "f.txt", edits: [{ oldText: "zzz", newText: "y" }] }, onUpdate, tc, inv, ctx)
		.catch((error) => error.message.replaceAll(dir, "<dir>"));
	out.bash = await bash.execute("4", { command: "echo $GREETING; echo err >&2" }, onUpdate, tc, inv, ctx);
	out.bashFail = await bash
		.execute("4", { command: "echo out; exit 3" }, onUpdate, tc, inv, ctx)
		.catch((error) => error.message);
	out.bashBadTimeout = await bash
		.execute("4", { command: "true", timeout: -1 }, onUpdate, tc, inv, ctx)
		.catch((error) => error.message);
	const big = await bash.execute("4", { command: "seq 1 3000" }, onUpdate, tc, inv, ctx);
	const bigText = scrub(big.content[0].text, dir);
	out.bashBig = scrub({ text: bigText.slice(-80), length: bigText.length, details: big.details }, dir);
	out.firstUpdate = updates.find((u) => u[0].content.length === 0)?.[0];
	out.bashTimeout = await bash
		.execute("5", { command: "echo started; sleep 5", timeout: 1 }, onUpdate, tc, inv, ctx)
		.catch((error) => error.message);
	const { context: abortable, cancel: abort } = core.withCancel(ctx);
	setTimeout(() => abort(), 300);
	out.bashAbort = await bash
		.execute("6", { command: "echo go; sleep 5" }, onUpdate, tc, inv, abortable)
		.catch((error) => error.message);
	const { context: abortable2, cancel: abort2 } = core.withCancel(ctx);
	setTimeout(() => abort2(), 300);
	out.captureAbort = await core.executeShellWithCapture(env, "echo part; sleep 5", {}, abortable2);
	out.captureFail = await core.executeShellWithCapture(env, "exit 7", {}, ctx);
	const chunks = [];
	const captured = await core.executeShellWithCapture(
		env,
		"printf 'a\\nb\\n'; exit 4",
		{ onChunk: (chunk) => chunks.push(chunk) },
		ctx,
	);
	out.capture = [captured, chunks.join("")];
	Object.assign(out, sessionScenario(core));
	out.memory = stableIds(await memoryScenario(core));
	out.jsonl = scrub(stableIds(await jsonlScenario(core, env, dir)), dir);
	return scrub(out, dir);
}

const attempt = (fn) => {
	try {
		return fn();
	} catch (error) {
		return `throws ${error.name}: ${error.message}`;
	}
};

function sessionScenario(core) {
	const out = {};
	const addr = core.value("app.ns", "k");
	const lst = core.list("app.list");
	out.addresses = [
		addr,
		lst,
		Object.isFrozen(addr),
		attempt(() => core.value("")),
		attempt(() => core.list("a\u0000")),
		attempt(() => core.value("a", "b\u0000")),
	];
	out.writes = [core.setValue(addr, 1), core.deleteValue(addr), core.appendList(lst, { a: 1 }), core.deleteList(lst)];
	out.listOptions = [
		core.resolveListReadOptions(),
		core.resolveListReadOptions({ limit: 50000, order: "desc", cursor: { seq: 3 } }),
		attempt(() => core.resolveListReadOptions({ limit: 0 })),
		attempt(() => core.resolveListReadOptions({ limit: 1.5 })),
	];
	out.reserved = [
		core.branchTip("main"),
		core.branchTipInventoryPrefix(),
		core.laneConfig("l"),
		core.laneState("l"),
		core.operationResult("o"),
		core.operationMeta("o"),
		core.operationState("o"),
		core.operationToolArgs("o", "s", 2),
		core.operationToolMemo("o", "i", "n"),
		core.operationPreparation("o", "t"),
		core.operationToolArgsPrefix("o"),
		core.operationToolArgsPrefix("o", "s"),
		core.operationToolMemoPrefix("o"),
		core.operationToolMemoPrefix("o", "i"),
		core.operationPreparationPrefix("o"),
		core.pendingEntry("e"),
		core.pendingToolOutput("o", "i"),
		core.pendingAssistantFrames("o", "r"),
		core.pendingToolOutputPrefix("o"),
		core.sessionName,
		core.entryLabel("e"),
	];
	const e1 = { type: "message", id: "e1", parentId: null, message: { role: "user", content: "hi", timestamp: 1 } };
	const e2 = { type: "custom", id: "e2", parentId: "e1", customType: "x", data: { n: 1 } };
	const usage = { id: "u1", usage: { input: 1 }, adjustment: false };
	const writes = [
		core.insertEntry(e1),
		core.insertEntry(e2),
		core.insertUsage(usage),
		core.setValue(addr, 2),
		core.appendList(lst, 3),
		core.deleteValue(addr),
		core.deleteList(lst),
	];
	const prepared = core.prepareStorageCommit(writes, 10, 99);
	out.commit = [writes, prepared, core.commitWrite(writes[0], 5, 6)];
	const known = { hasEntryOrUsageId: (id) => id === "old", hasEntryId: (id) => id === "old" };
	out.validate = [
		attempt(() => core.validateCommittedWrites(prepared.writes, 10, known) ?? "ok"),
		attempt(() => core.validateCommittedWrites(prepared.writes, 11, known)),
		attempt(() => core.validateCommittedWrites([prepared.writes[1]], 10, known)),
		attempt(() =>
			core.validateCommittedWrites(
				core.prepareStorageCommit([core.insertEntry({ ...e1, id: "old" })], 1, 1).writes,
				1,
				known,
			),
		),
		attempt(() =>
			core.validateCommittedWrites(
				core.prepareStorageCommit([core.insertEntry(e1), core.insertUsage({ ...usage, id: "e1" })], 1, 1).writes,
				1,
				known,
			),
		),
	];
	const entries = [
		{ ...e1, seq: 1, timestamp: 1 },
		{ ...e2, seq: 2, timestamp: 2 },
		{
			type: "message",
			id: "e3",
			parentId: "e2",
			seq: 3,
			timestamp: 3,
			message: { role: "user", content: "x", timestamp: 3 },
		},
		{
			type: "message",
			id: "f1",
			parentId: "e1",
			seq: 4,
			timestamp: 4,
			message: { role: "user", content: "y", timestamp: 4 },
		},
	];
	const stored = (namespace, key, v, seq) => ({ address: core.value(namespace, key), value: v, seq });
	const config = { model: { provider: "p", modelId: "m" }, thinkingLevel: "off", activeToolNames: [] };
	const scalarValues = [
		stored("pi.branch.tip", "main", "e3", 5),
		stored("pi.branch.tip", "side", "f1", 6),
		stored("pi.lane.config", "main", config, 7),
		stored(
			"pi.lane.state",
			"main",
			{ currentOperationId: "o", lastOperationId: "p", inbox: [{ entryId: "e3", kind: "steer" }] },
			8,
		),
		stored("pi.session.name", "", "named", 9),
		stored("pi.entry.label", "e2", "L2", 10),
		stored("pi.entry.label", "f1", "LF", 11),
		stored("pi.op.meta", "o", {}, 12),
		stored("pi.pending.entry", "x", {}, 13),
		stored("pi.result", "o", {}, 14),
		stored("app.data", "k", [1], 15),
	];
	const snapshot = (options, source = { entries, scalarValues }) =>
		attempt(() => {
			const r = core.createForkSnapshot(source, options);
			return { entries: [...r.entries.keys()].sort(), scalarValues: r.scalarValues, nextSeq: r.nextSeq };
		});
	out.fork = [
		snapshot({ scope: "tree" }),
		snapshot({ scope: "branch", branch: "main" }),
		snapshot({ scope: "branch", branch: "main", entryId: "e2" }),
		snapshot({ scope: "branch", branch: "main", entryId: "e2", position: "before" }),
		snapshot({ scope: "branch", branch: "main", entryId: "f1" }),
		snapshot({ scope: "branch", branch: "side" }),
		snapshot({ scope: "branch", branch: "nope" }),
		snapshot({ scope: "tree" }, { entries, scalarValues: [...scalarValues, stored("pi.weird", "", 1, 20)] }),
		snapshot({ scope: "tree" }, { entries, scalarValues: [stored("pi.lane.config", "x", config, 1)] }),
		snapshot({ scope: "tree" }, { entries, scalarValues: [stored("pi.branch.tip", "x", "zz", 1)] }),
	];
	const plan = { scope: "branch", branch: "main", destinationTip: "e2" };
	out.project = [
		core.projectForkCurrentStateWrite(
			{ kind: "list", op: "append", seq: 1, namespace: "app.list", key: "", value: 1 },
			plan,
			() => true,
		),
		core.projectForkCurrentStateWrite(
			{ kind: "list", op: "append", seq: 1, namespace: "app.list", key: "", value: 1 },
			{ scope: "tree" },
			() => true,
		),
		core.projectForkCurrentStateWrite(
			{ kind: "value", op: "set", seq: 1, namespace: "pi.branch.tip", key: "main", value: "e3" },
			plan,
			() => true,
		),
	];
	const lane = {
		lane: "main",
		transcript: [],
		tipId: null,
		configuration: structuredClone(config),
		stats: { messageCount: 0, usage: {} },
		operation: null,
		queues: [],
		faulted: false,
	};
	const msg = { role: "assistant", content: [], stopReason: "pending" };
	const events = [
		{ type: "compaction_start", runId: "c0", startedAt: 1 },
		{ type: "run_start", runId: "r1", startedAt: 2 },
		{ type: "message_start", runId: "r1", message: msg },
		{ type: "message_update", runId: "r1", message: { ...msg, content: [{ type: "text", text: "a" }] } },
		{ type: "retry_scheduled", runId: "r1", attempt: 1, maxAttempts: 3, notBefore: 9 },
		{ type: "message_end", runId: "r1", message: msg },
		{ type: "tool_start", runId: "r1", toolCallId: "t1", toolName: "read", args: { p: 1 } },
		{ type: "tool_start", runId: "r1", toolCallId: "t2", toolName: "bash", args: {} },
		{ type: "tool_update", runId: "r1", toolCallId: "t1", partialResult: { content: [] } },
		{ type: "tool_end", runId: "r1", toolCallId: "t1", toolName: "read", result: { content: [] }, isError: false },
		{
			type: "entry_added",
			lane: "main",
			entry: { type: "message", id: "m1", message: { role: "toolResult", toolCallId: "t1" } },
		},
		{ type: "entry_added", lane: "other", entry: { type: "message", id: "zz", message: { role: "user" } } },
		{ type: "queue_update", queues: [{ entryId: "q", kind: "steer" }] },
		{ type: "usage", lane: "other", totals: { input: 5 } },
		{ type: "config_update", lane: "main", property: "thinkingLevel", value: "high" },
		{ type: "config_update", property: "model", value: {} },
		{ type: "run_suspend", runId: "r1", deferred: { h: 1 }, poll: 2 },
		{ type: "operation_abort", operationId: "r1" },
		{
			type: "run_end",
			runId: "r1",
			status: "failed",
			error: { code: "x", message: "m" },
			fromTipId: null,
			tipId: "m1",
			endedAt: 10,
		},
		{ type: "compaction_start", runId: "c1", startedAt: 11 },
		{ type: "entry_added", entry: { type: "compaction", id: "c", summary: "s" } },
		{ type: "compaction_end", runId: "c1", status: "completed", endedAt: 12 },
		{ type: "fault" },
		{ type: "navigation_end" },
	];
	out.lane = events.map((event) => [core.reduceLaneSnapshot(lane, event), structuredClone(lane)]);
	out.scope =
		core.operationScopeOf?.({
			at: "tools",
			control: { status: "running" },
			settings: { a: 1 },
			latestAssistantEntryId: "x",
			batch: {},
		}) ?? "not exported";
	return out;
}

/** Random uuids become id1, id2, … in order of first appearance. */
function stableIds(value) {
	const seen = new Map();
	return JSON.parse(
		JSON.stringify(value).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
			if (!seen.has(id)) seen.set(id, `id${seen.size + 1}`);
			return seen.get(id);
		}),
	);
}

const settle = async (promise) => {
	try {
		return await promise;
	} catch (error) {
		return `throws ${error.name}: ${error.message}`;
	}
};

async function memoryScenario(core) {
	const ctx = core.BACKGROUND_CONTEXT;
	const out = {};
	let clock = 1000;
	const repo = new core.MemorySessionRepo({ now: () => clock++ });
	const session = await repo.create({ id: "s1" }, ctx);
	out.metadata = session.metadata;
	const main = await session.createBranch("main", null, ctx);
	const m1 = await main.appendMessage({ role: "user", content: "hello", timestamp: 1 }, ctx);
	const c1 = await main.appendCustomEntry("note", { n: 1 }, ctx);
	await main.appendCustomEntry("bare", undefined, ctx);
	await session.setName("named", ctx);
	await session.setLabel(m1, "first", ctx);
	await session.appendList(core.list("app.log"), "a", ctx);
	await session.appendList(core.list("app.log"), "b", ctx);
	await session.setValue(core.value("app.kv", "b"), 2, ctx);
	await session.setValue(core.value("app.kv", "a"), 1, ctx);
	await session.mutate(
		async (m, c) =>
			m.commit(
				[
					core.insertUsage({
						id: "u1",
						usage: {
							input: 1,
							output: 2,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 3,
							cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
						},
						adjustment: false,
					}),
				],
				c,
			),
		ctx,
	);
	out.reads = [
		await session.findEntries(undefined, ctx),
		await session.findEntries({ order: "asc", limit: 2, type: "custom" }, ctx),
		await session.findEntry({ cursor: { seq: 3 } }, ctx),
		await main.findEntries(undefined, ctx),
		await main.findEntries({ order: "oldestFirst", stopAtId: c1 }, ctx),
		await main.getTipId(ctx),
		await session.getName(ctx),
		await session.getLabel(m1, ctx),
		await session.getStats(ctx),
		await session.scanValues(core.value("app.kv"), ctx),
		await session.readList(core.list("app.log"), { order: "desc" }, ctx),
		await session.getEntry(m1, ctx),
		(await session.branch("nope", ctx)) === undefined,
	];
	out.errors = [
		await settle(session.createBranch("main", null, ctx)),
		await settle(session.createBranch("x", "missing", ctx)),
		await settle(session.createBranch("", null, ctx)),
		await settle(main.appendMessage({ role: "assistant", content: [], stopReason: "pending" }, ctx)),
		await settle(
			session.mutate(async (m, c) => {
				await m.commit([], c);
				return m.commit([], c);
			}, ctx),
		),
		await settle(repo.open(session.metadata, ctx)),
		await settle(repo.create({ id: "s1" }, ctx)),
	];
	await session.setValue(
		core.laneConfig("main"),
		{ model: { provider: "p", modelId: "m" }, thinkingLevel: "off", activeToolNames: [] },
		ctx,
	);
	await session.setValue(core.laneState("main"), { currentOperationId: null, lastOperationId: null, inbox: [] }, ctx);
	const fork = await repo.fork(session.metadata, { scope: "branch", branch: "main", entryId: c1, id: "f1" }, ctx);
	out.fork = [
		fork.metadata,
		await fork.findEntries({ order: "asc" }, ctx),
		await fork.scanValues(core.value("pi.branch.tip"), ctx),
		await fork.getName(ctx),
		await fork.getStats(ctx),
	];
	await session.close(ctx);
	out.afterClose = await settle(session.getName(ctx));
	const again = await repo.open(session.metadata, ctx);
	out.reopened = [await again.getName(ctx), (await repo.list(undefined, ctx)).map((m) => m.id)];
	out.deleteOpen = await settle(repo.delete(session.metadata, ctx));
	await again.close(ctx);
	await repo.delete(again.metadata, ctx);
	out.afterDelete = (await repo.list(undefined, ctx)).map((m) => m.id);
	await repo.close(ctx);
	return out;
}

async function jsonlScenario(core, env, dir) {
	const ctx = core.BACKGROUND_CONTEXT;
	const out = {};
	let clock = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
	const root = join(dir, "sessions");
	const repo = new core.JsonlSessionRepo({ fileSystem: env, sessionsRoot: root, now: () => clock++ });
	out.emptyList = await repo.list(undefined, ctx);
	const session = await repo.create({ id: "j1", cwd: join(dir, "proj") }, ctx);
	const meta = session.metadata;
	out.metadata = { ...meta, modifiedAt: typeof meta.modifiedAt };
	const main = await session.createBranch("main", null, ctx);
	const m1 = await main.appendMessage({ role: "user", content: "hi", timestamp: 1 }, ctx);
	const m2 = await main.appendCustomEntry("note", { a: 1 }, ctx);
	await session.setName("jsonl", ctx);
	await session.setLabel(m1, "first", ctx);
	await session.appendList(core.list("app.log"), 1, ctx);
	await session.setValue(core.value("app.tmp"), 1, ctx);
	await session.deleteValue(core.value("app.tmp"), ctx);
	await session.setValue(
		core.laneConfig("main"),
		{ model: { provider: "p", modelId: "m" }, thinkingLevel: "off", activeToolNames: [] },
		ctx,
	);
	await session.setValue(core.laneState("main"), { currentOperationId: "op", lastOperationId: null, inbox: [] }, ctx);
	await session.mutate(
		async (m, c) =>
			m.commit(
				[
					core.insertUsage({
						id: "u1",
						usage: {
							input: 1,
							output: 0,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 1,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						adjustment: false,
					}),
					core.setValue(core.value("app.kv", "x"), [1]),
				],
				c,
			),
		ctx,
	);
	out.file = readFileSync(meta.path, "utf8");
	out.alreadyOpen = await settle(repo.open(meta, ctx));
	const fork = await repo.fork(meta, { scope: "branch", branch: "main", entryId: m1, id: "j2" }, ctx);
	out.forkFile = readFileSync(fork.metadata.path, "utf8");
	out.fork = [
		await fork.findEntries(undefined, ctx),
		await fork.getName(ctx),
		await fork.getLabel(m1, ctx),
		await fork.getStats(ctx),
	];
	const treeFork = await repo.fork(meta, { scope: "tree", id: "j3" }, ctx);
	out.treeForkFile = readFileSync(treeFork.metadata.path, "utf8");
	await Promise.all([session.close(ctx), fork.close(ctx), treeFork.close(ctx)]);
	appendFileSync(meta.path, '{"kind":"value","op":"set","seq":99');
	const reopened = await repo.open(meta, ctx);
	out.reopened = [
		await reopened.getName(ctx),
		await reopened.getStats(ctx),
		(await (await reopened.branch("main", ctx)).getTipId(ctx)) === m2,
		readFileSync(meta.path, "utf8") === out.file,
	];
	await reopened.close(ctx);
	out.list = (await repo.list(undefined, ctx)).map((m) => ({ ...m, modifiedAt: typeof m.modifiedAt }));
	out.listCwd = (await repo.list({ cwd: join(dir, "other") }, ctx)).length;
	out.dupe = await settle(repo.create({ id: "j1", cwd: join(dir, "proj") }, ctx));
	out.deleted = await settle(
		repo.delete(
			out.list.find((m) => m.id === "j3") && (await repo.list(undefined, ctx)).find((m) => m.id === "j3"),
			ctx,
		),
	);
	out.afterDelete = (await repo.list(undefined, ctx)).map((m) => m.id);
	return out;
}
