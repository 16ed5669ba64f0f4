/**
 * The interactive mode (the binary in a pseudo-terminal) tells the user in the chat, not only on stderr, when
 * another program wrote to the session file and this session stops saving.
 */
import { expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ourAppStarter } from "../helpers/pty-app.ts";
import { mockAssistant } from "./big-session.ts";

const start = ourAppStarter();

const ID = "eeeeeeee-0000-4000-8000-000000000005";

function oneTurnSession(): string {
	const at = "2026-01-02T03:04:05.000Z";
	const lines = [
		{ type: "session", version: 3, id: ID, timestamp: at, cwd: "{{cwd}}" },
		{
			type: "message",
			id: "eeeeu001",
			parentId: null,
			timestamp: at,
			message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1767323045000 },
		},
		{
			type: "message",
			id: "eeeea001",
			parentId: "eeeeu001",
			timestamp: at,
			message: mockAssistant([{ type: "text", text: "hi there" }], 1767323046000),
		},
	];
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

test("another program appends to the session: the chat shows that it is no longer saved", async () => {
	const app = await start({
		sessions: { "s.jsonl": oneTurnSession() },
		args: ["-c"],
		mock: [{ kind: "reply", text: "second answer" }],
	});
	await app.ready(20_000);
	await app.waitFor("hi there", 15_000);
	const file = join(
		app.home,
		".pi",
		"agent",
		"sessions",
		`--${app.cwd.replace(/^\//, "").replace(/[/:]/g, "-")}--`,
		"s.jsonl",
	);
	const foreign = {
		type: "custom",
		id: "0f0f0f0f",
		parentId: null,
		timestamp: new Date().toISOString(),
		customType: "x",
	};
	appendFileSync(file, `${JSON.stringify(foreign)}\n`);
	const before = readFileSync(file, "utf8");
	app.type("again");
	await app.press("enter");
	const screen = await app.waitFor("Session not saved from here on", 20_000);
	expect(screen.join("\n")).toContain("another program wrote to");
	await app.waitFor("second answer", 15_000);
	expect(readFileSync(file, "utf8")).toBe(before);
}, 60_000);
