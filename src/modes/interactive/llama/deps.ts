/** What the `/llama` flow and the llama.cpp login take from the app. */
import { loadLlama } from "../../../ai/index.ts";
import type { CommandContext } from "../commands/types.ts";
import type { LlamaFlowDeps } from "./flow.ts";

export async function flowDeps(c: CommandContext): Promise<LlamaFlowDeps> {
	return {
		llama: await loadLlama(),
		registry: c.registry,
		authStorage: c.authStorage ?? c.registry.authStorage,
		agentDir: c.agentDir,
		env: process.env,
		notify: (message, type) => {
			if (type === "error") c.app.chat.showError(message);
			else if (type === "warning") c.app.chat.showWarning(message);
			else c.app.chat.showStatus(message);
			c.app.tui.requestRender();
		},
	};
}
