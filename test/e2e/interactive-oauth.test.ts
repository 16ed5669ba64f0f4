/**
 * `/login` with an account in our interactive mode (compiled binary, pseudo-terminal) against the loopback
 * authorization server: the login dialog shows the authorize URL, the browser callback completes it, the tokens
 * land in auth.json (0600) and the next request carries them; Escape cancels and leaves auth.json absent;
 * `/logout` removes the login.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { reply, settle, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import { ourAppStarter, type PtyApp } from "../helpers/pty-app.ts";
import { startOAuthServer } from "../support/oauth-server.ts";

const oauth = startOAuthServer();
afterAll(() => oauth.stop());
const start = ourAppStarter({});

async function command(app: PtyApp, text: string): Promise<void> {
	const head = text.split(" ")[0] as string;
	const inEditor = (lines: string[]) => editorBox(lines).some((line) => line.includes(head));
	app.type(text);
	await app.waitFor((lines) => editorBox(lines).some((line) => line.includes(text.slice(-12))));
	await settle(app, 200);
	for (let i = 0; i < 3; i++) {
		await app.press("enter");
		const gone = await app.waitFor((lines) => !inEditor(lines), 1500).catch(() => undefined);
		if (gone) return;
	}
	throw new Error(`${text} was not submitted`);
}

/** The authorize URL as the dialog shows it (wrapped over several rows). */
async function shownUrl(app: PtyApp): Promise<string> {
	const lines = await app.waitFor((rows) => rows.some((row) => row.includes("/oauth/authorize")));
	const first = lines.findIndex((row) => row.trim().startsWith(oauth.url));
	let url = "";
	for (let i = first; i < lines.length; i++) {
		const row = (lines[i] ?? "").trim();
		if (!row || row.includes("click to open")) break;
		url += row;
	}
	return url;
}

const options = () => ({
	redirectProviders: ["anthropic"],
	settings: { defaultProvider: "anthropic", defaultModel: "claude-sonnet-4-5" },
	env: { PI_OAUTH_TEST_ORIGIN: oauth.url },
	cols: 120,
});

describe("/login with an account (ours, in a pseudo-terminal)", () => {
	test("the browser callback logs in; the chat then sends the subscription token", async () => {
		const app = await start({ ...options(), mock: [reply("subscription answer")] });
		await command(app, "/login anthropic");
		await app.waitFor("Select authentication method for Anthropic:");
		await app.press("enter");
		await app.waitFor("Login to Anthropic (Claude Pro/Max)");
		const url = await shownUrl(app);
		const page = await fetch(oauth.approve(url).replace("//localhost:", "//127.0.0.1:"));
		expect(page.status).toBe(200);
		await app.waitFor("Logged in to Anthropic");
		const auth = join(app.home, ".pi", "agent", "auth.json");
		const stored = JSON.parse(readFileSync(auth, "utf8")).anthropic;
		expect(stored.type).toBe("oauth");
		expect(statSync(auth).mode & 0o777).toBe(0o600);
		await submit(app, "hello");
		await turnDone(app, 1, "subscription answer");
		expect(app.mock.requests[0]?.headers.authorization).toBe(`Bearer ${stored.access}`);

		await command(app, "/logout");
		await app.waitFor("Select provider to logout:");
		await app.press("enter");
		await app.waitFor("Logged out of Anthropic");
		expect(JSON.parse(readFileSync(auth, "utf8"))).toEqual({});
	}, 60_000);

	test("Escape cancels the login: no auth.json, the callback port is closed", async () => {
		const app = await start(options());
		await command(app, "/login anthropic");
		await app.waitFor("Select authentication method for Anthropic:");
		await app.press("enter");
		await shownUrl(app);
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((line) => line.includes("/oauth/authorize")));
		await settle(app, 300);
		expect(existsSync(join(app.home, ".pi", "agent", "auth.json"))).toBe(false);
		await expect(fetch("http://127.0.0.1:53692/callback")).rejects.toThrow();
	}, 60_000);
});
