/**
 * Scenarios for examples that ask the user: confirm and select dialogs (with and without a countdown), custom
 * question components driven by a tool call, and commands that send user messages.
 */
import type { InteractiveScenario } from "./interactive-scenarios.ts";
import { reply, settle, submit, toolReply, turnDone } from "./interactive-scenarios.ts";
import { boxBetweenRules, editorBox, normalise, rowsFrom, rowsMatching } from "./interactive-scenarios-screen.ts";

export const DIALOG_SCENARIOS: InteractiveScenario[] = [
	{
		name: "timed-confirm",
		extension: "timed-confirm.ts",
		essential: "confirm dialog title, message, countdown and options; select options; the notifications",
		async run(app) {
			await submit(app, "/timed");
			const confirm = await app.waitFor("Timed Confirmation");
			const dialog = normalise(boxBetweenRules(await settle(app), -2));
			await app.press("enter");
			const confirmed = await app.waitFor(/Confirmed by user!|Cancelled or timed out/);
			await submit(app, "/timed-select");
			await app.waitFor("Pick an option");
			const select = normalise(boxBetweenRules(await settle(app), -2));
			await app.press("down", "enter");
			const picked = await app.waitFor("Selected:");
			return [
				...(dialog.length ? dialog : normalise(editorBox(confirm))),
				...rowsMatching(confirmed, /Confirmed by user!|Cancelled or timed out/),
				...select,
				...rowsMatching(picked, /Selected:/),
			];
		},
	},
	{
		name: "confirm-destructive",
		extension: "confirm-destructive.ts",
		essential: "the /new confirmation dialog and the cancellation notice",
		async run(app) {
			await submit(app, "/new");
			await app.waitFor("Clear session?");
			const dialog = boxBetweenRules(await settle(app), -2);
			await app.press("down", "enter");
			const after = await app.waitFor("Clear cancelled");
			return [...dialog, ...rowsMatching(after, /Clear cancelled/)];
		},
	},
	{
		name: "permission-gate",
		extension: "permission-gate.ts",
		essential: "the dangerous-command select dialog, and the blocked tool result after choosing No",
		options: { mock: [toolReply("bash", { command: "rm -rf build" }), reply("Understood, not deleting")] },
		async run(app) {
			await submit(app, "clean up");
			await app.waitFor("Dangerous command");
			const dialog = boxBetweenRules(await settle(app), -2);
			await app.press("down", "enter");
			const after = await turnDone(app, 2, "Understood, not deleting");
			return [...dialog, ...rowsMatching(after, /rm -rf build|Blocked by user|Understood/)];
		},
	},
	{
		name: "send-user-message",
		extension: "send-user-message.ts",
		essential: "usage warning, the user messages the commands send, and the replies",
		options: { mock: [reply("Ask reply"), reply("Askwith reply")] },
		async run(app) {
			await submit(app, "/ask");
			const usage = await app.waitFor("Usage: /ask");
			await submit(app, "/ask what is up");
			await turnDone(app, 1, "Ask reply");
			await submit(app, "/askwith tell me");
			const after = await turnDone(app, 2, "Askwith reply");
			return [
				...rowsMatching(usage, /Usage: \/ask/),
				...rowsFrom(after, /^ what is up/, /Askwith reply/).filter((line) => line.trim() !== ""),
			];
		},
	},
	{
		name: "question",
		extension: "question.ts",
		essential: "the question component (prompt, options, free-text choice) and the tool result after picking",
		options: {
			mock: [
				toolReply("question", {
					question: "Which database?",
					options: [{ label: "Postgres" }, { label: "SQLite", description: "a single file" }],
				}),
				reply("Going with it"),
			],
		},
		async run(app) {
			await submit(app, "pick one");
			await app.waitFor("Which database?");
			const component = rowsFrom(await settle(app), /^ Which database\?/, /Esc to cancel/);
			await app.press("down", "enter");
			const after = await turnDone(app, 2, "Going with it");
			return [...component, ...rowsFrom(after, /^ question /, /Going with it/).filter((line) => line.trim() !== "")];
		},
	},
	{
		name: "questionnaire",
		extension: "questionnaire.ts",
		essential: "the tabbed questionnaire (tabs, prompt, options), its submit tab, and the tool result",
		options: {
			mock: [
				toolReply("questionnaire", {
					questions: [
						{
							id: "scope",
							label: "Scope",
							prompt: "What scope?",
							options: [
								{ value: "small", label: "Small" },
								{ value: "large", label: "Large", description: "everything" },
							],
						},
						{
							id: "prio",
							label: "Priority",
							prompt: "Which priority?",
							options: [
								{ value: "high", label: "High" },
								{ value: "low", label: "Low" },
							],
						},
					],
				}),
				reply("Thanks for answering"),
			],
		},
		async run(app) {
			await submit(app, "ask me");
			await app.waitFor("What scope?");
			const first = rowsFrom(await settle(app), /←.*Submit/, /Esc cancel/);
			await app.press("enter");
			await app.waitFor("Which priority?");
			await app.press("down", "enter");
			await app.waitFor((lines) => !lines.some((line) => line.includes("Which priority?")));
			const submitTab = rowsFrom(await settle(app), /←.*Submit/, /Esc cancel/);
			await app.press("enter");
			const after = await turnDone(app, 2, "Thanks for answering");
			return [
				...first,
				...submitTab,
				...rowsFrom(after, /^ questionnaire /, /Thanks for answering/).filter((line) => line.trim() !== ""),
			];
		},
	},
];
