/**
 * The model commands in our interactive mode (compiled binary, pseudo-terminal, mock LLM offering mock-1..3):
 * `/model` by argument and through its selector (Ctrl+L), with Ctrl+S saving the default; `/thinking` by argument
 * and selector; `/scoped-models` saving `enabledModels` and Ctrl+P then cycling only those (with a keybindings.json
 * that remaps one scoped-models key); `/login` storing a key in auth.json (0600) that the next request uses, and
 * `/logout` removing it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { reply, settle, submit, turnDone } from "../helpers/interactive-scenarios.ts";
import { editorBox } from "../helpers/interactive-scenarios-screen.ts";
import { ourAppStarter, type PtyApp, type PtyAppOptions, piUnavailable, startPi } from "../helpers/pty-app.ts";

const start = ourAppStarter({ moreModels: ["mock-2", "mock-3"] });

const agentFile = (app: PtyApp, name: string) => join(app.home, ".pi", "agent", name);
const settings = (app: PtyApp) => JSON.parse(readFileSync(agentFile(app, "settings.json"), "utf8"));
/** The footer's model line (the last row that names a model and a thinking level). */
const footerModel = (lines: string[]) =>
	lines.filter((line) => /mock-\d/.test(line) && line.includes("•")).at(-1) ?? "";
const footerShows = (text: string) => (lines: string[]) => footerModel(lines).includes(text);

async function waitForFile(path: string, test: (text: string) => boolean): Promise<string> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		let text = "";
		try {
			text = readFileSync(path, "utf8");
		} catch {}
		if (test(text)) return text;
		if (Date.now() > deadline) throw new Error(`${path} never matched; it holds: ${text}`);
		await Bun.sleep(50);
	}
}

/**
 * Submits a slash command. When its argument completions are open, Enter first takes the highlighted completion
 * (as in pi) and a second Enter submits.
 */
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

describe("model commands (ours, in a pseudo-terminal)", () => {
	test("/model switches by argument and through the selector (Ctrl+L); Ctrl+S saves the default; the request uses it", async () => {
		const app = await start({ mock: [reply("answer one")] });
		await command(app, "/model mock-2");
		await app.waitFor("Model: mock-2");
		await app.waitFor(footerShows("mock-2"));
		await command(app, "/model no-such-model-xyz");
		await app.waitFor('No model matches "no-such-model-xyz"');

		await app.press("ctrl+l");
		const selector = await app.waitFor("to set as default");
		const rows = selector.filter((line) => /\[mock\]/.test(line));
		expect(rows[0]).toContain("✓ mock-2");
		expect(rows.join("\n")).toContain("mock-1 [mock] · default");
		app.type("mock-3");
		await app.waitFor((lines) => lines.some((line) => line.startsWith("→") && line.includes("mock-3")));
		await app.press("enter");
		await app.waitFor("Model: mock-3");
		await app.waitFor(footerShows("mock-3"));
		await submit(app, "hello");
		await turnDone(app, 1, "answer one");
		expect(app.mock.requests[0]?.body.model).toBe("mock-3");

		await command(app, "/model");
		await app.waitFor("to set as default");
		app.type("mock-2");
		await app.waitFor((lines) => lines.some((line) => line.startsWith("→") && line.includes("mock-2")));
		await app.press("ctrl+s");
		await app.waitFor("Default model: mock/mock-2");
		await waitForFile(agentFile(app, "settings.json"), (text) => text.includes('"mock-2"'));
		expect(settings(app)).toMatchObject({ defaultProvider: "mock", defaultModel: "mock-2" });
	}, 60_000);

	test("/thinking sets a level by argument, refuses an unknown one, and saves a default from its selector", async () => {
		const app = await start();
		await command(app, "/thinking high");
		await app.waitFor("Thinking level: high");
		await app.waitFor(footerShows("• high"));
		await command(app, "/thinking loud");
		await app.waitFor('Unknown thinking level "loud". Available levels: off, minimal, low, medium, high.');
		await command(app, "/thinking");
		const shown = await app.waitFor("Thinking Level");
		expect(shown.some((line) => line.startsWith("→ ✓ high"))).toBe(true);
		app.type("low");
		await app.waitFor((lines) => lines.some((line) => line.startsWith("→") && line.includes("low")));
		await app.press("ctrl+s");
		await app.waitFor("Default thinking level: low");
		await app.waitFor(footerShows("• low"));
		await waitForFile(agentFile(app, "settings.json"), (text) => /"defaultThinkingLevel":\s*"low"/.test(text));
	}, 60_000);

	test("/scoped-models saves enabledModels and Ctrl+P then cycles only those (clear-all remapped in keybindings.json)", async () => {
		const app = await start({
			homeFiles: { ".pi/agent/keybindings.json": JSON.stringify({ "app.models.clearAll": "ctrl+k" }) },
		});
		await command(app, "/scoped-models");
		const opened = await app.waitFor("Model Configuration");
		expect(opened.join("\n")).toContain("Ctrl+K clear");
		expect(opened.join("\n")).toContain("all enabled");
		await app.press("ctrl+k");
		await app.waitFor("0/3 enabled");
		await app.press("enter"); // mock-1
		await app.waitFor("1/3 enabled");
		await app.press("down", "down", "enter"); // mock-3
		await app.waitFor("2/3 enabled (unsaved)");
		await app.press("ctrl+s");
		await app.waitFor("Model selection saved to settings");
		await waitForFile(agentFile(app, "settings.json"), (text) => text.includes("enabledModels"));
		expect(settings(app).enabledModels).toEqual(["mock/mock-1", "mock/mock-3"]);
		await app.press("escape");
		await app.waitFor((lines) => !lines.some((line) => line.includes("Model Configuration")));
		await app.press("ctrl+p");
		await app.waitFor(footerShows("mock-3"));
		await app.press("ctrl+p");
		await app.waitFor(footerShows("mock-1"));
		await app.press("ctrl+p");
		await app.waitFor(footerShows("mock-3"));
		expect((await app.screen()).join("\n")).not.toContain("Switched to mock-2");
	}, 60_000);

	test("/login stores a masked API key in auth.json (0600) that the next request sends; /logout removes it", async () => {
		const app = await start({ mock: [reply("keyed answer")] });
		await command(app, "/login mock");
		await app.waitFor("Login to mock");
		app.type("sk-typed-secret-42");
		const typed = await app.waitFor("••••••••••••••••••");
		expect(typed.join("\n")).not.toContain("sk-typed");
		await app.press("enter");
		await app.waitFor("Saved API key for mock");
		const auth = agentFile(app, "auth.json");
		expect(JSON.parse(readFileSync(auth, "utf8"))).toEqual({ mock: { type: "api_key", key: "sk-typed-secret-42" } });
		expect(statSync(auth).mode & 0o777).toBe(0o600);
		await submit(app, "hello");
		await turnDone(app, 1, "keyed answer");
		expect(app.mock.requests[0]?.headers["x-api-key"]).toBe("sk-typed-secret-42");

		await command(app, "/logout");
		const picker = await app.waitFor("Select provider to logout:");
		expect(picker.join("\n")).toContain("mock ✓ configured");
		await app.press("enter");
		await app.waitFor("Removed stored API key for mock");
		expect(JSON.parse(readFileSync(auth, "utf8"))).toEqual({});
		await command(app, "/logout");
		await app.waitFor("No stored credentials to remove.");
	}, 60_000);

	test("/login with no credentials at start-up selects the provider's default model and the chat works at once", async () => {
		// Anthropic (its requests sent to the mock) is the default provider and has no key yet: no session.
		const app = await start({
			redirectProviders: ["anthropic"],
			settings: { defaultProvider: "anthropic", defaultModel: "claude-sonnet-4-5" },
			mock: [reply("first keyed answer")],
		});
		await command(app, "/login anthropic");
		// Anthropic has both an account login and API keys: pi asks which first.
		await app.waitFor("Select authentication method for Anthropic:");
		await app.press("down", "enter");
		await app.waitFor("Enter Anthropic API key");
		app.type("sk-first-run");
		await app.press("enter");
		const screen = await app.waitFor("Selected ");
		const selected = /Selected (\S+)\./.exec(screen.join("\n"))?.[1];
		expect(settings(app)).toMatchObject({ defaultProvider: "anthropic", defaultModel: selected });
		await submit(app, "hello");
		await turnDone(app, 1, "first keyed answer");
		expect(app.mock.requests[0]?.headers["x-api-key"]).toBe("sk-first-run");
	}, 60_000);

	test("side by side with pi 0.87.1: /model and /scoped-models show the same rows for a saved scope", async () => {
		const skip = piUnavailable();
		if (skip) {
			console.log(`skipped: ${skip}`);
			return;
		}
		const options: PtyAppOptions = {
			moreModels: ["mock-2", "mock-3"],
			settings: { enabledModels: ["mock/mock-1", "mock/mock-3"] },
		};
		const rowsOf = async (app: PtyApp) => {
			await app.ready(30_000);
			const rows: string[][] = [];
			for (const name of ["/model", "/scoped-models"]) {
				await command(app, name);
				const shown = await app.waitFor((lines) => lines.some((line) => line.includes("Model Name: mock-1")), 15_000);
				rows.push(shown.filter((line) => /\[mock\]|^Scope:|enabled$/.test(line)));
				await app.press("escape");
				await app.waitFor((lines) => !lines.some((line) => line.includes("Model Name:")));
			}
			return rows;
		};
		const pi = await startPi(options);
		if ("skip" in pi) return;
		start.track(pi);
		const ours = await start(options);
		const ourRows = await rowsOf(ours);
		expect(ourRows[0]).toContain("Scope: all | scoped");
		expect(ourRows[1]?.length).toBeGreaterThanOrEqual(3);
		expect(ourRows).toEqual(await rowsOf(pi));
	}, 90_000);
});
