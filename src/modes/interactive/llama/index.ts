/**
 * `/llama` and `/login llama.cpp` on the interactive app, loaded on first use (the commands table imports this
 * folder only through `import()`).
 */
import { currentTheme } from "../../../resources/index.ts";
import { errorMessage } from "../../../util/index.ts";
import type { CommandContext } from "../commands/types.ts";
import { flowDeps } from "./deps.ts";
import { configuredRouter, runLlamaFlow } from "./flow.ts";
import { LlamaView } from "./view.ts";

export { loginLlamaCpp } from "./login.ts";

/** `/llama`: the router's models in the editor's place until closed. */
export async function openLlama(c: CommandContext): Promise<void> {
	const deps = await flowDeps(c);
	const router = configuredRouter(deps);
	if (!router) return;
	const view = new LlamaView(currentTheme(), () => c.app.tui.requestRender());
	const restore = c.showSelector(view);
	try {
		await runLlamaFlow(deps, view, router);
	} catch (error) {
		deps.notify(errorMessage(error), "error");
	} finally {
		restore();
		c.view.updateBorderColor();
		c.app.tui.requestRender();
	}
}

/** Once the screen is up (not with PI_OFFLINE): the router's current models replace the cached ones, quietly. */
export async function refreshAtStart(c: CommandContext): Promise<void> {
	const deps = await flowDeps(c);
	await deps.llama.refreshConfiguredRouter(c.registry, deps.authStorage, c.agentDir, deps.env);
}
