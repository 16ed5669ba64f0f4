/**
 * The pseudo-terminal harness (test/helpers/pty-app.ts) proven on pi 0.87.1 itself: its start-up frame, a turn
 * against the mock LLM, and leaving with Ctrl+C twice. Skips, saying why, when pi cannot run here.
 */
import { afterAll, expect, test } from "bun:test";
import { type PtyApp, piUnavailable, startPi } from "../helpers/pty-app.ts";

const apps: PtyApp[] = [];
afterAll(async () => {
	await Promise.all(apps.splice(0).map((app) => app.close()));
});

const skip = piUnavailable();
if (skip) console.warn(`pty harness: skipped: ${skip}`);

test.skipIf(skip !== undefined)(
	"pi 0.87.1 in a pseudo-terminal: start-up frame, one turn, Ctrl+C twice exits",
	async () => {
		const started = await startPi({ mock: [{ kind: "reply", text: "Hello from the mock model" }] });
		if ("skip" in started) throw new Error(started.skip);
		const app = started;
		apps.push(app);

		// Start-up: the editor between two rules, then the footer with the context use and the mock model.
		await app.waitFor((lines) => lines.some((line) => line.includes("mock-1")), 20_000);
		const first = await app.ready();
		expect(app.title()).toBe("π - work");
		const rules = first.map((line, i) => (/^─{20,}$/.test(line) ? i : -1)).filter((i) => i >= 0);
		expect(rules.length).toBeGreaterThanOrEqual(2);
		const footer = first.slice(rules.at(-1) as number).join("\n");
		expect(footer).toMatch(/0\.0%\/200k/);
		expect(footer).toContain("mock-1");

		app.type("hello");
		await app.waitFor(/^hello$/m);
		await app.press("enter");
		const replied = await app.waitFor("Hello from the mock model", 15_000);
		expect(replied.join("\n")).toMatch(/^ hello$/m);
		expect(app.mock.requests.length).toBe(1);

		await app.press("ctrl+c");
		await Bun.sleep(200);
		await app.press("ctrl+c");
		const code = await Promise.race([app.exited, Bun.sleep(10_000).then(() => "still running")]);
		expect(code).toBe(0);
		const last = [...(await app.scrollback()), ...(await app.screen())].join("\n");
		expect(last).toMatch(/To resume this session: pi --session \S+/);
	},
	60_000,
);
