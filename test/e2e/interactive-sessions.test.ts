/**
 * Session commands in our interactive mode (the compiled binary in a pseudo-terminal, a temp HOME, the mock LLM):
 * `/resume` of a session pi 0.87.1 wrote, a damaged file listed and refused with a reason, delete only after a
 * confirmation (on a key remapped in keybindings.json), `/fork`, `/clone`, `/session`, `/import`, and `pi -r`.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import {
	ourAppStarter,
	type PtyApp,
	type PtyAppOptions,
	piUnavailable,
	startOurs,
	startPi,
} from "../helpers/pty-app.ts";

const start = ourAppStarter();

/** Session files pi 0.87.1 wrote (shared fixtures; read, never modified). */
const FIXTURES =
	process.env.PI_SESSION_FIXTURES ?? join(import.meta.dir, "..", "..", "..", "shared", "fixtures", "pi-sessions");
if (!existsSync(FIXTURES)) console.log(`skip: the pi session fixtures are not at ${FIXTURES}`);
const piFixture = join(FIXTURES, "v1-before-compaction.jsonl");

/** A small v3 session with one user message and one reply. */
function sessionText(id: string, question: string, extra: Record<string, unknown> = {}): string {
	const at = "2026-01-02T03:04:05.000Z";
	const lines = [
		{ type: "session", version: 3, id, timestamp: at, cwd: "{{cwd}}", ...extra },
		{
			type: "message",
			id: `${id.slice(0, 4)}u001`,
			parentId: null,
			timestamp: at,
			message: { role: "user", content: [{ type: "text", text: question }], timestamp: 1767323045000 },
		},
		{
			type: "message",
			id: `${id.slice(0, 4)}a001`,
			parentId: `${id.slice(0, 4)}u001`,
			timestamp: at,
			message: {
				role: "assistant",
				content: [{ type: "text", text: `answer to ${question}` }],
				api: "anthropic-messages",
				provider: "mock",
				model: "mock-1",
				usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0 } },
				stopReason: "stop",
				timestamp: 1767323046000,
			},
		},
	];
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

function sessionDirOf(app: PtyApp): string {
	return join(app.home, ".pi", "agent", "sessions", `--${app.cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}

function headers(app: PtyApp): Record<string, unknown>[] {
	const dir = sessionDirOf(app);
	return readdirSync(dir)
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => JSON.parse(readFileSync(join(dir, name), "utf8").split("\n")[0] as string));
}

describe("session commands (ours, in a pseudo-terminal)", () => {
	test.skipIf(!existsSync(piFixture))(
		"/resume lists a pi 0.87.1 session and a damaged file; the damaged one is refused, the other resumes",
		async () => {
			const app = await start({
				sessions: { "pi-written.jsonl": readFileSync(piFixture, "utf8"), "broken.jsonl": "this is not json\n" },
			});
			await submit(app, "/resume");
			const picker = await app.waitFor("Resume Session (Current Folder)", 15_000);
			await app.waitFor("[damaged] broken.jsonl");
			expect(picker.join("\n")).toContain("Resume Session");
			await app.waitFor("alright, read");
			// The damaged file is the newest (its mtime); choosing it says why and keeps the picker.
			await app.press("enter");
			await app.waitFor(/Cannot open .*broken\.jsonl: the first line is not valid JSON/);
			app.type("alright");
			await app.waitFor((lines) => !lines.some((l) => l.includes("[damaged]")));
			await app.press("enter");
			const resumed = await app.waitFor("Resumed session", 20_000);
			expect(resumed.join("\n")).not.toContain("Resume Session (Current Folder)");
			// Its history is in the chat: the compaction summary it starts from and its later messages.
			const history = [...(await app.scrollback()), ...(await app.screen())].join("\n");
			expect(history).toContain("Compacted from 185,014 tokens");
			expect(history).toContain("what did i just execute?");
			expect(readFileSync(join(sessionDirOf(app), "broken.jsonl"), "utf8")).toBe("this is not json\n");
		},
		60_000,
	);

	test("keys from keybindings.json open the picker and delete; delete asks first, then removes the file", async () => {
		const app = await start({
			sessions: {
				"a.jsonl": sessionText("aaaaaaaa-0000-4000-8000-000000000001", "alpha question"),
				"b.jsonl": sessionText("bbbbbbbb-0000-4000-8000-000000000002", "bravo question"),
			},
			homeFiles: {
				".pi/agent/keybindings.json": JSON.stringify({ "app.session.delete": "alt+x", "app.session.resume": "alt+r" }),
			},
			env: { PATH: "/usr/bin:/bin" },
		});
		// app.session.resume has no default key; the one bound here opens the picker.
		await app.press("alt+r");
		await app.waitFor("bravo question", 15_000);
		app.type("bravo");
		await app.waitFor((lines) => !lines.some((l) => l.includes("alpha question")));
		await app.press("alt+x");
		await app.waitFor("Delete session?");
		expect(existsSync(join(sessionDirOf(app), "b.jsonl"))).toBe(true);
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((l) => l.includes("Delete session?")));
		expect(existsSync(join(sessionDirOf(app), "b.jsonl"))).toBe(true);
		await app.press("alt+x");
		await app.waitFor("Delete session?");
		await app.press("enter");
		await app.waitFor(/Session (deleted|moved to trash)/);
		expect(existsSync(join(sessionDirOf(app), "b.jsonl"))).toBe(false);
		expect(existsSync(join(sessionDirOf(app), "a.jsonl"))).toBe(true);
	}, 60_000);

	test("/fork makes a new file with parentSession and puts the message in the editor; /clone and /session", async () => {
		const app = await start({ mock: [reply("first answer"), reply("second answer")] });
		await submit(app, "first question");
		await turnDone(app, 1, "first answer");
		await submit(app, "second question");
		await turnDone(app, 2, "second answer");
		await submit(app, "/session");
		const info = await app.waitFor("Session Info");
		await app.waitFor("Tools:");
		const text = (await app.screen()).join("\n");
		expect(info.join("\n")).toContain("Session Info");
		expect(text).toMatch(/User:\s*2/);
		expect(text).toMatch(/Assistant:\s*2/);
		expect(text).toContain(sessionDirOf(app));
		const original = headers(app);
		expect(original.length).toBe(1);

		await submit(app, "/fork");
		await app.waitFor("Fork from Message");
		await app.waitFor("Message 2 of 2");
		await app.press("enter");
		await app.waitFor("Forked to new session", 15_000);
		const editor = await app.waitFor((lines) => editorBox(lines).some((l) => l.includes("second question")));
		expect(editorBox(editor).join("\n")).toContain("second question");
		const afterFork = headers(app);
		expect(afterFork.length).toBe(2);
		const forked = afterFork.find((h) => h.id !== original[0]?.id);
		expect(typeof forked?.parentSession).toBe("string");

		await app.press("ctrl+c");
		await submit(app, "/clone");
		await app.waitFor("Cloned to new session", 15_000);
		expect(headers(app).length).toBe(3);
	}, 60_000);

	test("/import: a missing file is one error line naming it; a session file is copied in and resumed", async () => {
		const app = await start({
			files: { "saved.jsonl": sessionText("cccccccc-0000-4000-8000-000000000003", "imported question") },
		});
		await submit(app, "/import nowhere.jsonl");
		await app.waitFor("Replace current session with nowhere.jsonl?");
		await app.press("enter");
		await app.waitFor(/Failed to import session: File not found: .*nowhere\.jsonl/);
		await submit(app, "/import saved.jsonl");
		await app.waitFor("Replace current session with saved.jsonl?");
		await app.press("enter");
		await app.waitFor("Session imported from: saved.jsonl", 15_000);
		await app.waitFor("imported question");
		expect(existsSync(join(sessionDirOf(app), "saved.jsonl"))).toBe(true);
		expect(existsSync(join(app.cwd, "saved.jsonl"))).toBe(true);
	}, 60_000);

	test("pi -r opens the picker at start; Escape quits with 'No session selected'", async () => {
		const app = await startOurs({
			args: ["-r"],
			sessions: { "d.jsonl": sessionText("dddddddd-0000-4000-8000-000000000004", "delta question") },
		});
		start.track(app);
		await app.waitFor("Resume Session (Current Folder)", 20_000);
		await app.waitFor("delta question");
		await app.press("escape");
		expect(await app.exited).toBe(0);
		expect(app.output()).toContain("No session selected");
	}, 60_000);

	test("the picker shows the same rows as pi 0.87.1's", async () => {
		const skip = piUnavailable();
		if (skip) {
			console.log(`skipped: ${skip}`);
			return;
		}
		const options: PtyAppOptions = {
			sessions: {
				"2026-01-02T03-04-05-000Z_a.jsonl": sessionText("aaaaaaaa-0000-4000-8000-000000000001", "alpha question"),
				"2026-01-03T03-04-05-000Z_b.jsonl": sessionText("bbbbbbbb-0000-4000-8000-000000000002", "bravo question"),
			},
		};
		const rows = async (app: PtyApp) => {
			await app.ready(60_000);
			await submit(app, "/resume");
			const screen = await app.waitFor(
				(lines) =>
					lines.filter((l) => l.includes("question")).length === 2 && !lines.some((l) => l.includes("Loading")),
				30_000,
			);
			return screen
				.filter((l) => l.includes("Resume Session") || l.includes("question"))
				.map((l) => l.replace(/^\s*›?\s*/, "").replace(/\s+/g, " "));
		};
		const pi = await startPi(options);
		if ("skip" in pi) return;
		start.track(pi);
		const theirs = await rows(pi);
		const ours = await rows(await start(options));
		expect(ours).toEqual(theirs);
	}, 120_000);
});
