/**
 * Conformance scenarios for pi's example extensions that use the interactive UI: each loads one example with `-e`,
 * drives the app with a key script (the mock LLM scripted where a turn is needed), and extracts from the screen the
 * essential content it names — what must be the same in pi 0.87.1 and in ours. Incidental details (version, timing
 * digits, spinner frames) are normalised away by the extraction.
 * The scenarios live in interactive-scenarios-*.ts by theme; this file holds the shared shape and steps.
 */
import { join } from "node:path";
import { ensurePackage, PI_RUNNABLE } from "../../scripts/conformance-cache.ts";
import type { MockReply } from "../support/mock-llm/index.ts";
import { editorBox } from "./interactive-scenarios-screen.ts";
import type { PtyApp, PtyAppOptions } from "./pty-app.ts";

export interface InteractiveScenario {
	/** Also the example's name. */
	name: string;
	/** The example's path under `examples/extensions`. */
	extension: string;
	/** What is compared, in words. */
	essential: string;
	/** App options besides the extension (mock steps, files, size). */
	options?: PtyAppOptions;
	/** Drives the ready app and returns the essential content, extracted from the screen. */
	run(app: PtyApp): Promise<string[]>;
}

/** The folder of pi 0.87.1's example extensions, or why it is unavailable. */
export function examplesDir(): { dir: string } | { error: string } {
	const pkg = ensurePackage(PI_RUNNABLE);
	if ("error" in pkg) return pkg;
	return { dir: join(pkg.dir, "examples", "extensions") };
}

/** Types `text` into the editor, waits until the editor shows it, and submits it with Enter. */
export async function submit(app: PtyApp, text: string): Promise<void> {
	app.type(text);
	const tail = text.split("\n").at(-1)?.slice(-20) ?? "";
	await app.waitFor((lines) => editorBox(lines).some((line) => line.includes(tail)));
	await app.press("enter");
}

/** Waits until the app is idle again after a turn: the mock served `requests` requests and the screen settled. */
export async function turnDone(app: PtyApp, requests: number, lastText: string, timeoutMs = 15_000): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	while (app.mock.requests.length < requests) {
		if (Date.now() > deadline)
			throw new Error(`${app.kind}: the mock got ${app.mock.requests.length}/${requests} requests`);
		await Bun.sleep(25);
	}
	await app.waitFor(lastText, Math.max(1000, deadline - Date.now()));
	return settle(app);
}

/** The screen once it has not changed for `quietMs`. */
export async function settle(app: PtyApp, quietMs = 250, timeoutMs = 5000): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	let last = (await app.screen()).join("\n");
	let since = Date.now();
	while (Date.now() < deadline) {
		await Bun.sleep(50);
		const now = (await app.screen()).join("\n");
		if (now !== last) {
			last = now;
			since = Date.now();
		} else if (Date.now() - since >= quietMs) break;
	}
	return app.screen();
}

export function reply(text: string, extra: Partial<MockReply> = {}): MockReply {
	return { kind: "reply", text, usage: { input: 10, output: 5 }, ...extra };
}

export function toolReply(name: string, args: Record<string, unknown>, text = "", id = "call_1"): MockReply {
	return { kind: "reply", text, toolCalls: [{ id, name, arguments: args }], usage: { input: 10, output: 5 } };
}
