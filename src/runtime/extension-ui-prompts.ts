/**
 * The UI object extensions get (`ctx.ui`): the mode's UI with `ui_prompt_start` / `ui_prompt_end` around every
 * dialog an extension opens, and `theme` (the run's theme, unless the UI brings its own) in every mode.
 */
import type { ExtensionRunner } from "../extensions/index.ts";
import { currentTheme } from "../resources/index.ts";

export function withPromptEvents(
	ui: Record<string, unknown>,
	runner: ExtensionRunner,
	context: () => Parameters<ExtensionRunner["emit"]>[2],
): Record<string, unknown> {
	const wrapped: Record<string, unknown> = Object.create(ui);
	Object.defineProperty(wrapped, "theme", { enumerable: true, get: () => ui.theme ?? currentTheme() });
	for (const kind of ["select", "confirm", "input", "editor", "custom"] as const) {
		const original = ui[kind];
		if (typeof original !== "function") continue;
		wrapped[kind] = async (...args: unknown[]) => {
			const title = typeof args[0] === "string" ? args[0] : undefined;
			const event = { reason: "ui_prompt" as const, kind, ...(title !== undefined ? { title } : {}) };
			const announce = runner.hasHandlers("ui_prompt_start") || runner.hasHandlers("ui_prompt_end");
			if (announce) await runner.emit("ui_prompt_start", event, context());
			try {
				return await (original as (...a: unknown[]) => unknown).apply(ui, args);
			} finally {
				if (announce) await runner.emit("ui_prompt_end", event, context());
			}
		};
	}
	return wrapped;
}
