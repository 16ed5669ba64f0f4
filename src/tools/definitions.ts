/**
 * pi's SDK forms of the built-in tools: `create*ToolDefinition(cwd, options)` gives the tool as a definition an
 * extension can register or spread (`pi.registerTool({ ...createReadToolDefinition(cwd), execute … })`), and
 * `createCodingTools` / `createReadOnlyTools` give the usual sets as agent tools.
 */
import type { TSchema } from "@sinclair/typebox";
import type { AgentToolResult, AgentToolUpdateCallback, ToolExecutionMode } from "../agent/index.ts";
import { type BashToolOptions, createBashTool, type ShellSessionInfo } from "./bash.ts";
import { createEditTool, type EditToolOptions } from "./edit.ts";
import { createFindTool, type FindToolOptions } from "./find.ts";
import { createGrepTool, type GrepToolOptions } from "./grep.ts";
import { createLsTool, type LsToolOptions } from "./ls.ts";
import { createPowerShellTool, type PowerShellToolOptions } from "./powershell.ts";
import { createReadTool, type ReadToolOptions } from "./read.ts";
import type { bashSchema } from "./schemas.generated.ts";
import type { BuiltinTool } from "./types.ts";
import { createWriteTool, type WriteToolOptions } from "./write.ts";

/** A built-in tool as a definition (the shape of an extension's `ToolDefinition`, without renderers). */
export interface BuiltinToolDefinition<TParams extends TSchema = TSchema, TDetails = any> {
	name: string;
	label: string;
	description: string;
	parameters: TParams;
	promptSnippet?: string;
	promptGuidelines?: string[];
	prepareArguments?: (args: unknown) => unknown;
	executionMode?: ToolExecutionMode;
	execute(
		toolCallId: string,
		params: any,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx?: unknown,
	): Promise<AgentToolResult<TDetails>>;
}

/** Options for each built-in tool, by name (pi's `ToolsOptions`). */
export interface ToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	powershell?: PowerShellToolOptions;
	write?: WriteToolOptions;
	edit?: EditToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
}

/** The definition form of an agent tool: same name, schema and prompt lines; `execute` ignores the context. */
export function toolDefinitionFromTool<TParams extends TSchema, TDetails>(
	tool: BuiltinTool<TParams, TDetails>,
): BuiltinToolDefinition<TParams, TDetails> {
	return {
		name: tool.name,
		label: tool.label,
		description: tool.description,
		parameters: tool.parameters,
		...(tool.promptSnippet !== undefined ? { promptSnippet: tool.promptSnippet } : {}),
		...(tool.promptGuidelines !== undefined ? { promptGuidelines: [...tool.promptGuidelines] } : {}),
		...(tool.prepareArguments ? { prepareArguments: tool.prepareArguments } : {}),
		...(tool.executionMode ? { executionMode: tool.executionMode } : {}),
		execute: (toolCallId, params, signal, onUpdate) => tool.execute(toolCallId, params, signal, onUpdate),
	};
}

export const createReadToolDefinition = (cwd: string, options?: ReadToolOptions) =>
	toolDefinitionFromTool(createReadTool(cwd, options));
/** pi's option of the command tool definitions: tell commands about the calling session (default true). */
interface SessionEnvironmentOption {
	exposeSessionEnvironment?: boolean;
}

/** What an extension context says about its session, for the `PI_*` variables of a command. */
function sessionInfoOf(ctx: unknown): ShellSessionInfo | undefined {
	const c = ctx as
		| {
				sessionManager?: { getSessionId?(): string; getSessionFile?(): string | undefined };
				model?: { provider: string; id: string };
				thinkingLevel?: string;
		  }
		| undefined;
	const sessionId = c?.sessionManager?.getSessionId?.();
	if (!sessionId) return undefined;
	const sessionFile = c?.sessionManager?.getSessionFile?.();
	return {
		sessionId,
		...(sessionFile ? { sessionFile } : {}),
		...(c?.model ? { provider: c.model.provider, model: c.model.id } : {}),
		...(c?.thinkingLevel ? { thinkingLevel: c.thinkingLevel } : {}),
	};
}

/**
 * A command tool's definition whose commands see the calling context's session (`PI_SESSION_ID` & co.). The
 * environment is read synchronously when `execute` starts, so the context of each call is the one used.
 */
function commandDefinition<TOptions extends { sessionInfo?: () => ShellSessionInfo | undefined }, TDetails>(
	create: (options: TOptions) => BuiltinTool<typeof bashSchema, TDetails>,
	options: TOptions & SessionEnvironmentOption,
): BuiltinToolDefinition<typeof bashSchema, TDetails> {
	const { exposeSessionEnvironment = true, ...rest } = options;
	let calling: unknown;
	const tool = create({
		...(rest as TOptions),
		sessionInfo: () => (exposeSessionEnvironment ? sessionInfoOf(calling) : undefined),
	});
	const definition = toolDefinitionFromTool(tool);
	definition.execute = (toolCallId, params, signal, onUpdate, ctx) => {
		calling = ctx;
		try {
			return tool.execute(toolCallId, params, signal, onUpdate);
		} finally {
			calling = undefined;
		}
	};
	return definition;
}

export const createBashToolDefinition = (cwd: string, options: BashToolOptions & SessionEnvironmentOption = {}) =>
	commandDefinition((o: BashToolOptions) => createBashTool(cwd, o), options);
export const createPowerShellToolDefinition = (
	cwd: string,
	options: PowerShellToolOptions & SessionEnvironmentOption = {},
) => commandDefinition((o: PowerShellToolOptions) => createPowerShellTool(cwd, o), options);
export const createEditToolDefinition = (cwd: string, options?: EditToolOptions) =>
	toolDefinitionFromTool(createEditTool(cwd, options));
export const createWriteToolDefinition = (cwd: string, options?: WriteToolOptions) =>
	toolDefinitionFromTool(createWriteTool(cwd, options));
export const createGrepToolDefinition = (cwd: string, options?: GrepToolOptions) =>
	toolDefinitionFromTool(createGrepTool(cwd, options));
export const createFindToolDefinition = (cwd: string, options?: FindToolOptions) =>
	toolDefinitionFromTool(createFindTool(cwd, options));
export const createLsToolDefinition = (cwd: string, options?: LsToolOptions) =>
	toolDefinitionFromTool(createLsTool(cwd, options));

/** read, bash, edit and write: the tools a session starts with. */
export function createCodingTools(cwd: string, options: ToolsOptions = {}): BuiltinTool[] {
	return [
		createReadTool(cwd, options.read),
		createBashTool(cwd, options.bash),
		createEditTool(cwd, options.edit),
		createWriteTool(cwd, options.write),
	];
}

/** read, grep, find and ls: tools that change nothing. */
export function createReadOnlyTools(cwd: string, options: ToolsOptions = {}): BuiltinTool[] {
	return [
		createReadTool(cwd, options.read),
		createGrepTool(cwd, options.grep),
		createFindTool(cwd, options.find),
		createLsTool(cwd, options.ls),
	];
}
