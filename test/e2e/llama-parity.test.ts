/**
 * `/llama` and `/login llama.cpp` look as in pi 0.87.1: both programs run in a pseudo-terminal against their own
 * loopback router stand-in with the same models (PI_OFFLINE=1; `/llama` asks the router anyway) and are driven
 * with the same keys; the dialog rows (from its top rule to its bottom rule) must be identical at each step: the
 * model list, the "N model(s) loaded" choice, "Stop loading?", the empty download search, the Retry/Close screen
 * of an unreachable router, and the login's URL prompt. (The key prompt differs on purpose: ours masks the key.)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { settle } from "../helpers/interactive-scenarios.ts";
import { ourAppStarter, type PtyApp, type PtyAppOptions, piUnavailable, startPi } from "../helpers/pty-app.ts";
import { type LlamaRouterStandIn, startLlamaRouter } from "../support/llama-router.ts";

const startOurs = ourAppStarter();
const routers: LlamaRouterStandIn[] = [];
afterAll(() => {
	for (const r of routers.splice(0)) r.stop();
});

/** The dialog in the editor's place: from the first rule to the last one; the router URL (a port) replaced. */
function dialog(lines: string[], url: string): string[] {
	const first = lines.findIndex((l) => l.startsWith("──"));
	const last = lines.findLastIndex((l) => l.startsWith("──"));
	return lines.slice(first, last + 1).map((l) => l.replaceAll(url, "<router>"));
}

async function scenario(start: (o: PtyAppOptions) => Promise<PtyApp>): Promise<string[][]> {
	const r = startLlamaRouter({
		models: [
			{ id: "alpha", state: "loaded", nCtx: 8192 },
			{ id: "beta-with-a-rather-long-model-name-Q4_K_M", nCtx: 4096 },
			{ id: "gamma", state: "sleeping", nCtx: 500 },
		],
		loadStepMs: 20_000,
	});
	routers.push(r);
	const app = await start({
		homeFiles: {
			".pi/agent/auth.json": JSON.stringify({ "llama.cpp": { type: "api_key", env: { LLAMA_BASE_URL: r.url } } }),
		},
	});
	const shots: string[][] = [];
	const shot = async (wait: string) => {
		await app.waitFor(wait);
		shots.push(dialog(await settle(app, 300), r.url));
	};
	app.type("/llama");
	await settle(app, 200);
	await app.press("escape"); // closes the command completion list, if one is open
	await app.press("enter");
	await shot("Download model…");
	await app.press("down", "enter");
	await shot("models are loaded");
	await app.press("down", "enter");
	await app.waitFor("Loading model");
	await app.press("escape");
	await shot("Stop loading?");
	await app.press("enter");
	await app.waitFor("Download model…");
	await app.press("up", "enter");
	await shot("Type at least 2 characters");
	await app.press("escape");
	await app.waitFor("Download model…");
	r.disconnect();
	await app.press("enter"); // alpha: loaded → unload?
	await app.waitFor("Unload model?");
	await app.press("enter");
	await shot("llama.cpp unavailable");
	await app.press("down", "enter"); // Close
	await app.waitFor((lines) => !lines.some((l) => l.includes("llama.cpp unavailable")));
	r.reconnect();
	app.type("/login llama.cpp");
	await settle(app, 200);
	await app.press("escape");
	await app.press("enter");
	await shot("llama.cpp server URL");
	return shots;
}

describe("/llama parity with pi 0.87.1", () => {
	const skip = piUnavailable();
	test.skipIf(Boolean(skip))(
		"the same dialog rows at each step",
		async () => {
			const piShots = await scenario(async (o) => {
				const app = await startPi(o);
				if ("skip" in app) throw new Error(app.skip);
				startOurs.track(app);
				await app.ready();
				return app;
			});
			const ourShots = await scenario(startOurs);
			expect(ourShots).toEqual(piShots);
		},
		120_000,
	);
	if (skip) console.log(`skipped: ${skip}`);
});
