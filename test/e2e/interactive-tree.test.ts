/**
 * `/tree` in a pseudo-terminal (our binary, the mock LLM): moving back to an earlier user message with a branch
 * summary (the session file gets the branch_summary entry, the editor gets the message, the next request carries
 * the summary), and on a branched session: fold/unfold, a filter remapped in keybindings.json, a label.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../src/session/index.ts";
import { reply, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import { ourAppStarter, type PtyApp } from "../helpers/pty-app.ts";

const start = ourAppStarter({ cols: 100, rows: 40 });

/** Every line of the one session file under the app's HOME, parsed. */
function sessionEntries(app: PtyApp): { type: string; [key: string]: unknown }[] {
	const root = join(app.home, ".pi", "agent", "sessions");
	const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
	expect(files).toHaveLength(1);
	return readFileSync(join(root, files[0] as string), "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line));
}

/** A session with a branch: q1 → a1 → { old q → old a, new q → new a (leaf) }. */
function branchedSession(): string {
	const manager = SessionManager.inMemory("/tmp");
	const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
	const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
	const assistant = (text: string) => ({
		role: "assistant" as const,
		content: [{ type: "text" as const, text }],
		api: "anthropic-messages",
		provider: "mock",
		model: "mock-1",
		usage: { ...usage, cost },
		stopReason: "stop" as const,
		timestamp: 1,
	});
	manager.appendMessage({ role: "user", content: "root question", timestamp: 1 });
	const a1 = manager.appendMessage(assistant("root answer"));
	manager.appendMessage({ role: "user", content: "old question", timestamp: 1 });
	manager.appendMessage(assistant("old answer"));
	manager.branch(a1);
	manager.appendMessage({ role: "user", content: "new question", timestamp: 1 });
	manager.appendMessage(assistant("new answer"));
	const header = { ...manager.getHeader(), cwd: "{{cwd}}" };
	return `${[header, ...manager.getEntries()].map((e) => JSON.stringify(e)).join("\n")}\n`;
}

const treeRows = (lines: string[]) => {
	const from = lines.findIndex((l) => l.includes("Type to search:"));
	return lines.slice(from + 1).filter((l) => /user:|assistant:/.test(l));
};

describe("/tree (ours, in a pseudo-terminal)", () => {
	test("back to an earlier user message with a branch summary: entry written, editor prefilled, next request carries it", async () => {
		const app = await start({
			mock: [reply("answer one"), reply("answer two"), reply("SUMMARY-OF-LEFT-BRANCH"), reply("after the move")],
		});
		await submit(app, "first question");
		await turnDone(app, 1, "answer one");
		await submit(app, "second question");
		await turnDone(app, 2, "answer two");
		await submit(app, "/tree");
		await app.waitFor((lines) => lines.some((l) => l.startsWith("› ") && l.includes("assistant: answer two")));
		await app.press("up");
		await app.waitFor((lines) => lines.some((l) => l.startsWith("› ") && l.includes("user: second question")));
		await app.press("enter");
		await app.waitFor("Summarize branch?");
		await app.press("down", "enter");
		await app.waitFor("Navigated to selected point", 20_000);
		const screen = await app.waitFor((lines) => editorBox(lines).some((l) => l.includes("second question")));
		expect(screen.join("\n")).toContain("Branch summary");
		const summary = sessionEntries(app).find((e) => e.type === "branch_summary");
		expect(String(summary?.summary)).toContain("SUMMARY-OF-LEFT-BRANCH");
		expect(app.mock.requests).toHaveLength(3);
		expect(JSON.stringify(app.mock.requests[2]?.body)).toContain("answer two");
		await app.press("enter");
		await turnDone(app, 4, "after the move");
		const body = JSON.stringify(app.mock.requests[3]?.body);
		expect(body).toContain("SUMMARY-OF-LEFT-BRANCH");
		expect(body).not.toContain("answer two");
	}, 60_000);

	test("fold and unfold a branch, a remapped filter key, and a label written to the session", async () => {
		const app = await start({
			sessions: { "branched.jsonl": branchedSession() },
			args: ["-c"],
			homeFiles: { ".pi/agent/keybindings.json": JSON.stringify({ "app.tree.filter.userOnly": "alt+u" }) },
		});
		await app.waitFor("new answer");
		await submit(app, "/tree");
		let lines = await app.waitFor((l) => treeRows(l).length === 6);
		expect(treeRows(lines).map((l) => l.trim())).toEqual([
			"• user: root question",
			"• assistant: root answer",
			"├⊟ • user: new question",
			"› │     • assistant: new answer",
			"└⊟ user: old question",
			"assistant: old answer",
		]);
		// Up to the branch start, fold it, unfold it.
		await app.press("up");
		await app.waitFor((l) => l.some((row) => row.startsWith("› ") && row.includes("user: new question")));
		await app.press("ctrl+left");
		lines = await app.waitFor((l) => treeRows(l).length === 5);
		expect(lines.join("\n")).toContain("├⊞ • user: new question");
		await app.press("ctrl+right");
		await app.waitFor((l) => treeRows(l).length === 6);
		// The user-only filter on its remapped key.
		await app.press("alt+u");
		lines = await app.waitFor("[user]");
		expect(treeRows(lines)).toHaveLength(3);
		await app.press("alt+u");
		await app.waitFor((l) => treeRows(l).length === 6 && !l.join("\n").includes("[user]"));
		// A label on the selected entry.
		await app.press("shift+l");
		await app.waitFor("Label (empty to remove):");
		app.type("checkpoint");
		await app.press("enter");
		await app.waitFor("[checkpoint] user: new question");
		const label = sessionEntries(app).find((e) => e.type === "label");
		expect(label?.label).toBe("checkpoint");
		// The copy key copies the selected entry: on this headless machine through OSC 52.
		const before = app.output().length;
		await app.press("ctrl+x");
		await app.waitFor("Copied selected message to clipboard");
		expect(app.output().slice(before)).toContain(`\x1b]52;c;${Buffer.from("new question").toString("base64")}`);
		await app.press("escape");
		await app.waitFor((l) => !l.join("\n").includes("Session Tree"));
	}, 60_000);
});
