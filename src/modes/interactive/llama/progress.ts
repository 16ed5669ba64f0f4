/**
 * A long router operation (load, download) with its progress on screen. Escape asks whether to stop ("Stop
 * loading?" / "Stop download?" with the model); Yes asks the router to stop it (`cancel`) and then abandons the
 * wait; No goes back to the progress. An operation that ends while the question is open is not cancelled.
 */
import type { RouterProgress } from "../../../ai/index.ts";
import type { LlamaScreen, ProgressState } from "./view.ts";

export interface ProgressRun<T> {
	title: string;
	model: string;
	cancelTitle: string;
	run(signal: AbortSignal, update: (progress: RouterProgress) => void): Promise<T>;
	cancel(): Promise<void>;
}

export type ProgressOutcome<T> = { cancelled: true } | { cancelled: false; value: T };

export async function runWithProgress<T>(screen: LlamaScreen, op: ProgressRun<T>): Promise<ProgressOutcome<T>> {
	const controller = new AbortController();
	const state: ProgressState = { title: op.title, model: op.model, message: "Starting…" };
	let finished = false;
	const settled = op
		.run(controller.signal, (progress) => {
			// A field the new report lacks (ratio, detail) is kept from the last one, as pi shows it.
			Object.assign(state, progress);
			screen.updateProgress(state);
		})
		.then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		)
		.finally(() => {
			finished = true;
		});
	while (!finished) {
		const outcome = await Promise.race([
			settled.then(() => "settled" as const),
			screen.progress(state).then(() => "stop" as const),
		]);
		if (outcome === "settled") break;
		const stop = await screen.confirm(op.cancelTitle, op.model);
		if (!stop || finished) continue;
		try {
			await op.cancel();
		} finally {
			controller.abort(new Error("Cancelled"));
		}
		await settled;
		return { cancelled: true };
	}
	const result = await settled;
	if (!result.ok) throw result.error;
	return { cancelled: false, value: result.value };
}
