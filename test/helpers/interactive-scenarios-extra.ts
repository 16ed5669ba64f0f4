/**
 * Scenarios for smaller examples that touch the interactive UI: session naming (title), model status, the hidden
 * thinking label, custom entry rendering, bookmarks.
 */
import type { InteractiveScenario } from "./interactive-scenarios.ts";
import { reply, settle, submit, turnDone } from "./interactive-scenarios.ts";
import { belowEditor, rowsMatching } from "./interactive-scenarios-screen.ts";

export const EXTRA_SCENARIOS: InteractiveScenario[] = [
	{
		name: "session-name",
		extension: "session-name.ts",
		essential: "the notifications of naming and showing the name, and the window title with the name",
		async run(app) {
			await submit(app, "/session-name Demo run");
			const named = await app.waitFor("Session named: Demo run");
			await submit(app, "/session-name");
			const shown = await app.waitFor("Session: Demo run");
			return [...rowsMatching(named, /Session named/), ...rowsMatching(shown, /^ Session: /), app.title()];
		},
	},
	{
		name: "model-status",
		extension: "model-status.ts",
		// The extension's own notification is replaced by pi's switch notice at once: too brief to compare.
		essential: "pi's switch notice and the extension's status in the footer after cycling to the next model",
		options: { moreModels: ["mock-2"] },
		async run(app) {
			await app.press("ctrl+p");
			await app.waitFor((lines) => lines.some((line) => line.includes("🤖 mock-2")));
			const lines = await app.waitFor("Switched to mock-2");
			return [...rowsMatching(lines, /Switched to/), ...belowEditor(lines)];
		},
	},
	{
		name: "hidden-thinking-label",
		extension: "hidden-thinking-label.ts",
		essential: "the label shown for hidden thinking, then the notification of a new label",
		options: {
			settings: { hideThinkingBlock: true },
			mock: [reply("Thought it through", { thinking: "secret deliberation", thinkingSignature: "sig" })],
		},
		async run(app) {
			await submit(app, "think");
			const after = await turnDone(app, 1, "Thought it through");
			await submit(app, "/thinking-label Musing");
			const changed = await app.waitFor("Hidden thinking label set to: Musing");
			return [
				...rowsMatching(after, /Pondering|secret deliberation|Thought it through/),
				...rowsMatching(changed, /Hidden thinking label set to/),
			];
		},
	},
	{
		name: "entry-renderer",
		extension: "entry-renderer.ts",
		essential: "the custom-rendered status card entries",
		async run(app) {
			await submit(app, "/status-card Build is green");
			await app.waitFor("Build is green");
			await submit(app, "/status-card");
			await app.waitFor("[status] Status card");
			return rowsMatching(await settle(app), /\[status\]/);
		},
	},
	{
		name: "bookmark",
		extension: "bookmark.ts",
		essential: "the bookmark warnings and notifications around a turn",
		options: { mock: [reply("Worth keeping")] },
		async run(app) {
			await submit(app, "/bookmark early");
			const early = await app.waitFor("No assistant message to bookmark");
			await submit(app, "remember this");
			await turnDone(app, 1, "Worth keeping");
			await submit(app, "/bookmark keeper");
			const marked = await app.waitFor("Bookmarked as: keeper");
			await submit(app, "/unbookmark");
			const removed = await app.waitFor("Removed bookmark: keeper");
			return [
				...rowsMatching(early, /No assistant message/),
				...rowsMatching(marked, /Bookmarked as/),
				...rowsMatching(removed, /Removed bookmark/),
			];
		},
	},
];
