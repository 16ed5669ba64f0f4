/**
 * The interactive mode on a full disk (a 1 MiB tmpfs; skipped with the reason when it cannot be mounted): the chat
 * says once that the session is no longer saved because the disk is full, and the answer still shows.
 */
import { expect, test } from "bun:test";
import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ourAppStarter } from "../helpers/pty-app.ts";
import { mockAssistant } from "./big-session.ts";
import { mountTmpfs, unmount } from "./disk-full.ts";

const start = ourAppStarter();

function session(): string {
	const at = "2026-01-02T03:04:05.000Z";
	const lines = [
		{ type: "session", version: 3, id: "eeeeeeee-0000-4000-8000-000000000006", timestamp: at, cwd: "/tmp" },
		{
			type: "message",
			id: "dddd0001",
			parentId: null,
			timestamp: at,
			message: { role: "user", content: "hello", timestamp: 1 },
		},
		{
			type: "message",
			id: "dddd0002",
			parentId: "dddd0001",
			timestamp: at,
			message: mockAssistant([{ type: "text", text: "hi there" }], 2),
		},
	];
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

test("a full disk in the interactive mode: one notice in the chat, the answer still shown", async () => {
	const mounted = mountTmpfs();
	if ("skip" in mounted) {
		console.log(`skipped: ${mounted.skip}`);
		return;
	}
	try {
		const file = join(mounted.mount, "s.jsonl");
		writeFileSync(file, session());
		const fd = openSync(join(mounted.mount, "filler"), "a");
		try {
			for (;;) writeSync(fd, Buffer.alloc(4096, 120));
		} catch {
			ftruncateSync(fd, Math.max(0, fstatSync(fd).size - 8192));
		} finally {
			closeSync(fd);
		}
		const before = readFileSync(file);
		const app = await start({
			args: ["--session", file],
			mock: [{ kind: "reply", chunkSize: 65536, text: `big answer ${"z".repeat(64 * 1024)}` }],
		});
		await app.ready(20_000);
		await app.waitFor("hi there", 15_000);
		app.type("again");
		await app.press("enter");
		const screen = await app.waitFor("Session not saved from here on", 20_000);
		const shown = screen.join("\n");
		// The notice may wrap at the screen's width.
		expect(shown).toContain("full (ENOSPC)");
		expect(shown.split("Session not saved").length - 1).toBe(1);
		await app.waitFor("zzzzzzzz", 15_000);
		const text = readFileSync(file, "utf8");
		expect(text.startsWith(before.toString("utf8"))).toBe(true);
		expect(text.endsWith("\n")).toBe(true);
		for (const line of text.trimEnd().split("\n")) JSON.parse(line);
	} finally {
		unmount(mounted.mount);
	}
}, 60_000);
