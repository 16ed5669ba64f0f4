/**
 * The context commands in our interactive chat (compiled binary, pseudo-terminal, mock LLM): `/compact` shows its
 * progress line and Escape cancels it with nothing written; `/export` writes HTML and JSONL; `/copy` (and Ctrl+X)
 * sends OSC 52 where there is no clipboard command; `/share` changes nothing; `/bug` writes a redacted zip;
 * `/trust` saves the decision; `/hotkeys` shows a keybindings.json remap (re-read by `/reload`) and an extension
 * shortcut; `/changelog` shows our newest entry.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { ourAppStarter, type PtyApp, type PtyAppOptions, startOurs, startPi } from "../helpers/pty-app.ts";
import { readZip } from "../helpers/unzip.ts";

const start = ourAppStarter();

/** Every session file of the app's cwd, as text. */
function sessionTexts(app: PtyApp): string[] {
	const root = join(app.home, ".pi", "agent", "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root).flatMap((dir) =>
		readdirSync(join(root, dir))
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => readFileSync(join(root, dir, name), "utf8")),
	);
}

async function oneTurn(app: PtyApp, prompt: string, answer: string, requests = 1): Promise<void> {
	await submit(app, prompt);
	await turnDone(app, requests, answer);
}

describe("context commands (ours, in a pseudo-terminal)", () => {
	test("/compact shows its progress line and Escape cancels it; nothing is written", async () => {
		const app = await start({
			// A split turn is summarised in two requests at once: both hang.
			mock: [reply("first answer"), reply("second answer"), { kind: "hang" }, { kind: "hang" }, reply("queued answer")],
			settings: { compaction: { keepRecentTokens: 1 } },
		});
		await oneTurn(app, "first question", "first answer");
		await oneTurn(app, "second question", "second answer", 2);
		await submit(app, "/compact keep it short");
		await app.waitFor("Compacting context... (escape to cancel)", 10_000);
		while (app.mock.requests.length < 3) await Bun.sleep(25);
		// Typed while compacting: held until the compaction ends, listed as pending.
		await submit(app, "typed meanwhile");
		await app.waitFor("Queued message for after compaction");
		await app.waitFor("Steering: typed meanwhile");
		await app.press("escape");
		const after = await app.waitFor("Compaction cancelled", 10_000);
		expect(after.join("\n")).not.toContain("Compacting context");
		expect(sessionTexts(app).join("\n")).not.toContain('"type":"compaction"');
		// The summary request carried the instructions.
		expect(JSON.stringify(app.mock.requests[2]?.body)).toContain("keep it short");
		// The held message is sent once the compaction has ended.
		await turnDone(app, 5, "queued answer");
		expect(JSON.stringify(app.mock.requests.at(-1)?.body)).toContain("typed meanwhile");
	}, 60_000);

	test("automatic compaction shows the same way and Escape cancels it", async () => {
		const app = await start({
			model: { contextWindow: 4000 },
			mock: [reply("big answer", { usage: { input: 3900, output: 50 } }), { kind: "hang" }],
			settings: { compaction: { reserveTokens: 500, keepRecentTokens: 1 } },
		});
		await submit(app, "fill the context");
		await app.waitFor("Auto-compacting... (escape to cancel)", 15_000);
		while (app.mock.requests.length < 2) await Bun.sleep(25);
		await app.press("escape");
		const after = await app.waitFor("Auto-compaction cancelled", 10_000);
		expect(after.join("\n")).not.toContain("Auto-compacting");
		expect(sessionTexts(app).join("\n")).not.toContain('"type":"compaction"');
	}, 60_000);

	test("/export writes an HTML page and the branch as JSONL; a bad path is one error naming it", async () => {
		const app = await start({ mock: [reply("exported answer")] });
		await oneTurn(app, "export me", "exported answer");
		await submit(app, "/export page.html");
		await app.waitFor("Session exported to: page.html");
		expect(readFileSync(join(app.cwd, "page.html"), "utf8")).toContain("exported answer");
		await submit(app, "/export out/branch.jsonl");
		await app.waitFor(/Session exported to: .*branch\.jsonl/);
		const lines = readFileSync(join(app.cwd, "out", "branch.jsonl"), "utf8")
			.trim()
			.split("\n");
		const parsed = lines.map((line) => JSON.parse(line));
		expect(parsed[0]).toMatchObject({ type: "session", version: 3 });
		expect(lines.join("\n")).toContain("export me");
		expect(lines.join("\n")).toContain("exported answer");
		await submit(app, "/export");
		await app.waitFor(/Session exported to: pi-session-.*\.html/);
		expect(readdirSync(app.cwd).some((name) => /^pi-session-.*\.html$/.test(name))).toBe(true);
		writeFileSync(join(app.cwd, "blocker"), "");
		await submit(app, "/export blocker/x.html");
		await app.waitFor("Failed to export session to blocker/x.html: ENOTDIR");
	}, 60_000);

	test("/copy and its key (remapped in keybindings.json): nothing to copy is one line; then OSC 52 carries the reply", async () => {
		const app = await start({
			mock: [reply("copy this text")],
			homeFiles: { ".pi/agent/keybindings.json": JSON.stringify({ "app.message.copy": "alt+x" }) },
		});
		await submit(app, "/copy");
		await app.waitFor("No agent messages to copy yet.");
		await oneTurn(app, "say something", "copy this text");
		await app.press("alt+x");
		await app.waitFor("Copied last agent message to clipboard");
		const osc = `\x1b]52;c;${Buffer.from("copy this text").toString("base64")}\x07`;
		expect(app.output()).toContain(osc);
	}, 60_000);

	test("/share explains it needs an uploader and changes nothing", async () => {
		const app = await start({ mock: [reply("share answer")] });
		await oneTurn(app, "hello", "share answer");
		const before = { cwd: readdirSync(app.cwd).sort(), sessions: sessionTexts(app) };
		await submit(app, "/share");
		await app.waitFor("/share needs a configured uploader");
		expect(readdirSync(app.cwd).sort()).toEqual(before.cwd);
		expect(sessionTexts(app)).toEqual(before.sessions);
		expect(app.mock.requests.length).toBe(1);
	}, 60_000);

	test("/bug writes a local zip of the report, diagnostics and branch, with secrets redacted", async () => {
		const app = await start({
			mock: [reply("bug answer")],
			settings: { shellPath: "/bin/bash", npmCommand: ["npm", "--token=abc"], apiToken: "SETTINGS-SECRET" },
		});
		await oneTurn(app, "fetch https://me:HUNTER2@example.com/x?api_key=QUERY-SECRET please", "bug answer");
		await submit(app, "/bug the reply was wrong");
		const screen = await app.waitFor(/Report ID: /, 10_000);
		const name = readdirSync(app.cwd).find((file) => /^pi-bug-report-.*\.zip$/.test(file));
		expect(name).toBeDefined();
		expect(screen.join("").replace(/\s/g, "")).toContain(name as string);
		const files = readZip(new Uint8Array(readFileSync(join(app.cwd, name as string))));
		expect([...files.keys()]).toEqual(["report.json", "diagnostics.json", "session.jsonl"]);
		const report = JSON.parse(files.get("report.json") as string);
		expect(report.hint).toBe("the reply was wrong");
		expect(report.environment.platform).toBe(process.platform);
		expect(report.model).toMatchObject({ provider: "mock", id: "mock-1" });
		expect(report.settings.global.shellPath).toBe("/bin/bash");
		const all = [...files.values()].join("\n");
		for (const secret of ["SETTINGS-SECRET", "HUNTER2", "QUERY-SECRET", "mock-key"]) expect(all).not.toContain(secret);
		expect(files.get("session.jsonl")).toContain("bug answer");
		expect(sessionTexts(app).join("\n")).toContain('"customType":"pi.bug-report"');
	}, 60_000);

	test("/trust saves the chosen decision to trust.json", async () => {
		const app = await start();
		await submit(app, "/trust");
		const shown = await app.waitFor("Do not trust");
		expect(shown.join("\n")).toContain("Project trust");
		expect(shown.join("\n")).toContain("Saved decision: none");
		await app.press("down", "down", "enter");
		await app.waitFor("Saved trust decision: untrusted. Restart pi for this to take effect.");
		const trust = JSON.parse(readFileSync(join(app.home, ".pi", "agent", "trust.json"), "utf8"));
		expect(trust).toEqual({ [realpathSync(app.cwd)]: false });
	}, 60_000);

	test("a folder with .pi resources and no decision asks at start-up; the answer is saved and the chat starts", async () => {
		const app = start.track(await startOurs({ files: { ".pi/prompts/greet.md": "Say hello to the team" } }));
		const shown = await app.waitFor("Trust project folder?", 20_000);
		const text = shown.join("\n");
		for (const label of ["Trust parent folder", "Trust (this session only)", "Do not trust (this session only)"]) {
			expect(text).toContain(label);
		}
		await app.press("enter");
		await app.waitFor("mock-1", 20_000);
		const trust = JSON.parse(readFileSync(join(app.home, ".pi", "agent", "trust.json"), "utf8"));
		expect(trust).toEqual({ [realpathSync(app.cwd)]: true });
		// The trusted project's prompt template is loaded.
		app.type("/gree");
		await app.waitFor("greet");
	}, 60_000);

	test("Escape at the start-up trust question runs this time without the project's resources and saves nothing", async () => {
		const app = start.track(await startOurs({ files: { ".pi/prompts/greet.md": "Say hello to the team" } }));
		await app.waitFor("Trust project folder?", 20_000);
		await app.press("escape");
		await app.waitFor("mock-1", 20_000);
		expect(existsSync(join(app.home, ".pi", "agent", "trust.json"))).toBe(false);
	}, 60_000);

	test("/hotkeys lists keybindings.json remaps (re-read by /reload) and extension shortcuts", async () => {
		const keybindings = join(".pi", "agent", "keybindings.json");
		const app = await start({
			rows: 60,
			homeFiles: { [keybindings]: JSON.stringify({ "app.model.select": "alt+m" }) },
			files: {
				"shortcut.ts": `export default function (pi) {
	pi.registerShortcut("ctrl+shift+k", { description: "Say hi from the test", handler: () => {} });
}
`,
			},
			extensions: ["shortcut.ts"],
		});
		await submit(app, "/hotkeys");
		let screen = await app.waitFor("Say hi from the test");
		expect([...(await app.scrollback()), ...screen].join("\n")).toContain("Keyboard Shortcuts");
		expect(screen.some((row) => row.includes("Alt+M") && row.includes("Open model selector"))).toBe(true);
		expect(screen.some((row) => row.includes("Ctrl+Shift+K"))).toBe(true);
		writeFileSync(join(app.home, keybindings), JSON.stringify({ "app.model.select": "alt+n" }));
		await submit(app, "/reload");
		await app.waitFor("Reloaded keybindings", 20_000);
		await submit(app, "/hotkeys");
		screen = await app.waitFor((rows) => rows.some((row) => row.includes("Alt+N") && row.includes("model selector")));
		expect(screen.some((row) => row.includes("Alt+N"))).toBe(true);
	}, 60_000);

	test("/hotkeys and /trust show the same rows as pi 0.87.1", async () => {
		const options: PtyAppOptions = {
			rows: 60,
			homeFiles: { ".pi/agent/keybindings.json": JSON.stringify({ "app.model.select": "alt+m" }) },
		};
		const pi = await startPi(options);
		if ("skip" in pi) {
			console.log(`hotkeys side by side: skipped (${pi.skip})`);
			return;
		}
		start.track(pi);
		await pi.ready();
		const ours = await start(options);
		const rows = async (app: PtyApp) => {
			await submit(app, "/hotkeys");
			const screen = await app.waitFor("Run bash command (excluded from context)");
			const all = [...(await app.scrollback()), ...screen];
			const from = all.findIndex((row) => row.includes("Keyboard Shortcuts"));
			const to = all.findIndex((row) => row.includes("(excluded from context)"));
			return all.slice(from, to + 1).filter((row) => row.trim());
		};
		const trustRows = async (app: PtyApp) => {
			await submit(app, "/trust");
			const screen = await app.waitFor("Do not trust");
			const from = screen.findIndex((row) => row.includes("Project trust"));
			return screen.slice(from, screen.findIndex((row) => row.includes("Do not trust")) + 1).map((r) => r.trim());
		};
		const [piRows, ourRows] = await Promise.all([rows(pi), rows(ours)]);
		expect(ourRows.length).toBeGreaterThan(40);
		expect(ourRows.some((row) => row.includes("Alt+M"))).toBe(true);
		expect(ourRows).toEqual(piRows);
		const [piTrust, ourTrust] = await Promise.all([trustRows(pi), trustRows(ours)]);
		expect(ourTrust.length).toBeGreaterThanOrEqual(7);
		// The folder differs (each app has its own temp home); every other row is the same.
		expect(ourTrust.map((r) => r.replace(ours.cwd, "<cwd>").replace(ours.home, "<home>"))).toEqual(
			piTrust.map((r) => r.replace(pi.cwd, "<cwd>").replace(pi.home, "<home>")),
		);
	}, 60_000);

	test("/changelog shows our newest entry", async () => {
		const app = await start({ rows: 50 });
		await submit(app, "/changelog");
		const screen = await app.waitFor("Interactive chat");
		const shown = [...(await app.scrollback()), ...screen].join("\n");
		expect(shown).toContain("What's New");
		expect(shown).toContain("0.1.0] - Unreleased");
	}, 60_000);
});
