/**
 * Scenarios for examples that change the app's chrome: footer status, custom footer and header, widgets, the window
 * title, the working indicator, terminal notifications, custom message rendering.
 */
import type { InteractiveScenario } from "./interactive-scenarios.ts";
import { reply, settle, submit, turnDone } from "./interactive-scenarios.ts";
import { aboveEditor, belowEditor, normalise, rowsFrom, rowsMatching } from "./interactive-scenarios-screen.ts";

export const CHROME_SCENARIOS: InteractiveScenario[] = [
	{
		name: "status-line",
		extension: "status-line.ts",
		essential: "footer status text at start and after a turn",
		options: { mock: [reply("Status reply")] },
		async run(app) {
			const start = await app.waitFor("Ready");
			await submit(app, "hi");
			const after = await turnDone(app, 1, "Turn 1 complete");
			return [...rowsMatching(belowEditor(start), /Ready/), ...rowsMatching(belowEditor(after), /Turn 1/)];
		},
	},
	{
		name: "custom-footer",
		extension: "custom-footer.ts",
		essential: "custom footer line and the notification, then the default footer back",
		async run(app) {
			await submit(app, "/footer");
			await app.waitFor("Custom footer enabled");
			const customLines = await settle(app);
			await submit(app, "/footer");
			await app.waitFor("Default footer restored");
			const restored = await settle(app);
			return [
				...belowEditor(customLines),
				...rowsMatching(customLines, /Custom footer enabled/),
				...rowsMatching(restored, /Default footer restored/),
				...belowEditor(restored).filter((line) => /mock-1/.test(line)),
			];
		},
	},
	{
		name: "custom-header",
		extension: "custom-header.ts",
		essential: "mascot header rows, then the built-in header back after /builtin-header",
		async run(app) {
			const start = await app.waitFor("shitty coding agent");
			const header = rowsFrom(start, /█/, /shitty coding agent/);
			await submit(app, "/builtin-header");
			const after = await app.waitFor("Built-in header restored");
			return normalise([...header, ...rowsMatching(after, /^ pi v|Built-in header restored/)]);
		},
	},
	{
		name: "widget-placement",
		extension: "widget-placement.ts",
		essential: "widget line above the editor and widget line below it",
		async run(app) {
			const lines = await app.waitFor("Below editor widget");
			return [...aboveEditor(lines, 1), ...belowEditor(lines).slice(0, 1)];
		},
	},
	{
		name: "titlebar-spinner",
		extension: "titlebar-spinner.ts",
		essential: "window title while the agent works (spinner frame normalised) and after",
		options: { mock: [reply("Spinner reply", { frameDelayMs: 150, chunkSize: 2 })] },
		async run(app) {
			await submit(app, "hi");
			const deadline = Date.now() + 10_000;
			while (!/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(app.title())) {
				if (Date.now() > deadline) throw new Error(`${app.kind}: no spinner in the title (${app.title()})`);
				await Bun.sleep(20);
			}
			const busy = app.title();
			await turnDone(app, 1, "Spinner reply");
			const until = Date.now() + 5000;
			while (app.title() !== "π - work" && Date.now() < until) await Bun.sleep(20);
			return normalise([busy, app.title()]);
		},
	},
	{
		name: "working-indicator",
		extension: "working-indicator.ts",
		essential: "footer indicator status, the /working-indicator notification, the working line during a turn",
		options: { mock: [reply("Indicator reply", { frameDelayMs: 150, chunkSize: 2 })] },
		async run(app) {
			const start = await app.waitFor("Indicator: custom spinner");
			await submit(app, "/working-indicator dot");
			const changed = await app.waitFor("Working indicator set to: static dot");
			await submit(app, "hi");
			const working = await app.waitFor(/● Working/);
			await turnDone(app, 1, "Indicator reply");
			return [
				...rowsMatching(belowEditor(start), /Indicator:/),
				...rowsMatching(changed, /Working indicator set to/),
				...rowsMatching(belowEditor(changed), /Indicator:/),
				...rowsMatching(working, /● Working/),
			];
		},
	},
	{
		name: "notify",
		extension: "notify.ts",
		essential: "the OSC 777 desktop notification written when the agent settles, and the reply",
		options: { mock: [reply("Notify reply")] },
		async run(app) {
			await submit(app, "hi");
			const after = await turnDone(app, 1, "Notify reply");
			const deadline = Date.now() + 5000;
			while (!app.output().includes("\x1b]777;") && Date.now() < deadline) await Bun.sleep(20);
			const notifications = app
				.output()
				.split("\x1b]777;")
				.slice(1)
				.map((rest) => `OSC 777 ${rest.slice(0, rest.indexOf("\x07"))}`);
			return [...notifications, ...rowsMatching(after, /Notify reply/)];
		},
	},
	{
		name: "message-renderer",
		extension: "message-renderer.ts",
		essential: "the custom-rendered status messages in the transcript",
		async run(app) {
			await submit(app, "/status warn Disk almost full");
			await app.waitFor("[WARN]");
			await submit(app, "/status all good");
			await app.waitFor("[INFO]");
			return rowsMatching(await settle(app), /\[(WARN|INFO|ERROR)\]/);
		},
	},
];
