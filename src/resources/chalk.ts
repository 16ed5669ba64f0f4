/**
 * chalk, the colour engine of text attributes (bold, italic, …) and of extensions that import `chalk`. It is loaded
 * on first use, never at start-up: its colour-level detection reads the terminal (`node:tty`, `node:os`), which
 * costs ~15 ms in the binary. `loadChalk()` imports it (the extension loader and the SDK do that before any
 * extension code runs); `chalk()` hands out the loaded instance.
 *
 * The level chalk detects follows FORCE_COLOR (`0`-`3`, `true`, `false`), `--color`/`--no-color`, and whether
 * stdout is a terminal. chalk itself ignores NO_COLOR; we honour it as no-color.org asks: with NO_COLOR set (and
 * not empty) and no FORCE_COLOR, the level is 0.
 */
import type { ChalkInstance } from "chalk";

let engine: ChalkInstance | undefined;
let loading: Promise<ChalkInstance> | undefined;

/** Applies NO_COLOR to the detected level (FORCE_COLOR wins over it). */
export function adjustChalkLevel(instance: ChalkInstance, env: NodeJS.ProcessEnv = process.env): void {
	const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
	if (noColor && env.FORCE_COLOR === undefined) instance.level = 0;
}

/** Makes `instance` the engine (the module that statically imported chalk calls this). */
export function useChalk(instance: ChalkInstance): ChalkInstance {
	if (engine !== instance) {
		adjustChalkLevel(instance);
		engine = instance;
	}
	return instance;
}

/** Imports chalk once and makes it the engine. */
export function loadChalk(): Promise<ChalkInstance> {
	if (engine) return Promise.resolve(engine);
	loading ??= import("chalk").then((module) => useChalk(module.default));
	return loading;
}

/** The loaded engine; throws when nothing has loaded it yet (a programming error: call `loadChalk()` first). */
export function chalk(): ChalkInstance {
	if (!engine) throw new Error("chalk is not loaded yet: await loadChalk() before styling text");
	return engine;
}
