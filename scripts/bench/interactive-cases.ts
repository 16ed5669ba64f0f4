/**
 * The cases of the interactive benchmark (scripts/bench/interactive.ts), each one start of one app in a pseudo-
 * terminal. Definitions, the same for both apps:
 * - ready: a frame has ended with the screen showing the editor (two full-width `─` borders) and a footer under it;
 * - first frame: spawn → the arrival of the output that completed the first ready frame;
 * - settled: ready, and for a session its last message on screen, then 500 ms without output;
 * - keystroke (typed once settled): a character written to the terminal → the arrival of the synchronized-output
 *   end (`ESC[?2026l`) of the first frame that began after the write and holds that character; the next key is
 *   written once the app has been quiet for 20 ms (at most ~40 keys/s, a fast typist); the first 5 keys warm up and
 *   are not counted (the first of them is reported apart: work an app defers to the first key shows there);
 * - stream: Enter on a typed prompt → the reply's last line on screen and 300 ms without output; CPU is the app
 *   process's utime + stime over that span (/proc/<pid>/stat), frames and bytes are what it wrote in that span, and
 *   the span's wall time ends at the last frame;
 * - resume: spawn with `--session <file>` → a character, typed as soon as the emulator shows the first ready frame
 *   (as a user would), shows in a frame.
 */
import type { MockLlmServer } from "../../test/support/mock-llm/index.ts";
import { PtyApp } from "./pty-app.ts";
import { editorWithFooter } from "./pty-timing.ts";

export interface Side {
	name: "pi" | "ours";
	/** The command that starts the app (before its arguments). */
	cmd: string[];
	env: Record<string, string>;
}

export interface Stage {
	cwd: string;
	/** The last message of every generated session: on screen once the app shows the whole transcript. */
	sessionMarker: string;
	columns: number;
	rows: number;
	/** Arguments every start gets (provider and model of the mock). */
	args: string[];
}

export interface StreamSample {
	cpuMs: number;
	wallMs: number;
	frames: number;
	bytes: number;
}

const WARM_UP_KEYS = 5;
const TYPED = "the quick brown fox jumps over the lazy dog while the editor keeps up ";

function start(side: Side, stage: Stage, extra: string[]): PtyApp {
	return PtyApp.start({
		cmd: [...side.cmd, ...stage.args, ...extra],
		env: side.env,
		cwd: stage.cwd,
		columns: stage.columns,
		rows: stage.rows,
	});
}

async function withApp<T>(side: Side, stage: Stage, extra: string[], body: (app: PtyApp) => Promise<T>): Promise<T> {
	const app = start(side, stage, extra);
	try {
		return await body(app);
	} finally {
		await app.stop();
	}
}

const ready = (app: PtyApp, stage: Stage, timeoutMs: number) =>
	app.screenShows((rows) => editorWithFooter(rows, stage.columns), timeoutMs, "the editor and footer");

/**
 * Ready for typing: the editor is shown, the session's transcript too when one was given (its last message is on
 * screen: an app may draw the editor before the transcript), and the app has been quiet for 500 ms.
 */
async function settled(app: PtyApp, stage: Stage, session: string | undefined): Promise<void> {
	await ready(app, stage, 300_000);
	if (session)
		await app.screenShows((rows) => rows.some((row) => row.includes(stage.sessionMarker)), 600_000, "the transcript");
	await app.quiet(500, 120_000);
}

/** ms from spawn to the first frame showing the editor and footer. */
export function firstFrame(side: Side, stage: Stage): Promise<number> {
	return withApp(side, stage, [], async (app) => (await ready(app, stage, 60_000)) - app.spawnedAt);
}

export interface KeySamples {
	/** The first key after the app settled (a warm-up key, not in `samples`): lazy work shows here. */
	first: number;
	samples: number[];
}

/** Types `count` keys into the editor (after the session `session`, if any, is on screen); ms per key. */
export function keystrokes(side: Side, stage: Stage, count: number, session?: string): Promise<KeySamples> {
	return withApp(side, stage, session ? ["--session", session] : [], async (app) => {
		await settled(app, stage, session);
		const samples: number[] = [];
		let first = 0;
		for (let i = 0; i < count + WARM_UP_KEYS; i++) {
			const key = TYPED[i % TYPED.length] as string;
			const at = app.type(key);
			const frame = await app.nextFrame(at, (content) => content.includes(key), 180_000);
			if (i === 0) first = frame.endedAt - at;
			if (i >= WARM_UP_KEYS) samples.push(frame.endedAt - at);
			await app.quiet(20, 60_000);
		}
		return { first, samples };
	});
}

export interface StreamPlan {
	server: MockLlmServer;
	text: string;
	marker: string;
	/** Characters per streamed delta and the pause after each SSE frame. */
	chunkSize: number;
	frameDelayMs: number;
	outputTokens: number;
}

/** Sends one prompt and measures the app while the mock streams `plan.text` back. */
export function stream(side: Side, stage: Stage, plan: StreamPlan, session?: string): Promise<StreamSample> {
	return withApp(side, stage, session ? ["--session", session] : [], async (app) => {
		await settled(app, stage, session);
		for (const key of "Explain the render loop") {
			const at = app.type(key);
			await app.nextFrame(at, (content) => content.includes(key), 10_000);
		}
		await app.quiet(200, 10_000);
		const requestsBefore = plan.server.requests.length;
		plan.server.push({
			kind: "reply",
			text: plan.text,
			chunkSize: plan.chunkSize,
			frameDelayMs: plan.frameDelayMs,
			usage: { input: 1000, output: plan.outputTokens },
		});
		const cpu = app.cpuMs();
		const bytes = app.bytes;
		const frames = app.frames;
		const at = app.type("\r");
		const expectedMs = (plan.text.length / plan.chunkSize) * plan.frameDelayMs;
		await app.screenShows(
			(rows) => rows.some((row) => row.includes(plan.marker)),
			expectedMs + 60_000,
			"the reply's end",
		);
		await app.quiet(300, 30_000);
		if (plan.server.requests.length !== requestsBefore + 1)
			throw new Error(`expected one request to the mock, saw ${plan.server.requests.length - requestsBefore}`);
		return {
			cpuMs: app.cpuMs() - cpu,
			wallMs: app.lastFrameAt - at,
			frames: app.frames - frames,
			bytes: app.bytes - bytes,
		};
	});
}

/** ms from spawn with `--session <file>` until a typed character shows in a frame. */
export function resume(side: Side, stage: Stage, session: string): Promise<number> {
	return withApp(side, stage, ["--session", session], async (app) => {
		await ready(app, stage, 600_000);
		const at = app.type("Q");
		const frame = await app.nextFrame(at, (content) => content.includes("Q"), 60_000);
		return frame.endedAt - app.spawnedAt;
	});
}
