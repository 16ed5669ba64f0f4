/** Extension tools (`pi.registerTool`) as agent tools: the same definition, executed with the extension's `ctx`. */
import type { AgentTool } from "../agent/index.ts";
import type { ExtensionContext, ToolDefinition } from "../extensions/index.ts";

export type PromptMetadata = { promptSnippet?: string; promptGuidelines?: string[] };

export function wrapExtensionTool(
	definition: ToolDefinition,
	getContext: () => ExtensionContext,
): AgentTool<any> & PromptMetadata {
	const def = definition as ToolDefinition & {
		prepareArguments?: (args: unknown) => unknown;
		executionMode?: "sequential" | "parallel";
		promptSnippet?: string;
		promptGuidelines?: string[];
	};
	return {
		name: def.name,
		label: def.label ?? def.name,
		description: def.description,
		parameters: def.parameters as AgentTool["parameters"],
		...(def.prepareArguments ? { prepareArguments: def.prepareArguments } : {}),
		...(def.executionMode ? { executionMode: def.executionMode } : {}),
		...(def.promptSnippet ? { promptSnippet: def.promptSnippet } : {}),
		...(def.promptGuidelines ? { promptGuidelines: def.promptGuidelines } : {}),
		async execute(toolCallId, params, signal, onUpdate) {
			const execute = def.execute as (...args: unknown[]) => Promise<any>;
			const result = await execute(toolCallId, params, signal, onUpdate, getContext());
			return {
				content: result?.content ?? [],
				details: result?.details,
				...(result?.terminate ? { terminate: true } : {}),
			};
		},
	};
}

/** pi's `wrapRegisteredTool`: an extension's registered tool as an agent tool whose `ctx` comes from the runner. */
export function wrapRegisteredTool(
	registeredTool: { definition: ToolDefinition },
	runner: { createContext(): ExtensionContext },
): AgentTool<any> & PromptMetadata {
	return wrapExtensionTool(registeredTool.definition, () => runner.createContext());
}

/** `wrapRegisteredTool` for each tool. */
export function wrapRegisteredTools(
	registeredTools: readonly { definition: ToolDefinition }[],
	runner: { createContext(): ExtensionContext },
): (AgentTool<any> & PromptMetadata)[] {
	return registeredTools.map((tool) => wrapRegisteredTool(tool, runner));
}
