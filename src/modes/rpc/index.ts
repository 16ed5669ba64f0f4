/**
 * RPC mode's protocol layer: message types, JSONL framing, command-line parsing, and the subprocess client.
 * (The server that answers commands lives beside it.)
 */

export { jsonSyntaxError, v8JsonParseErrorMessage } from "../../util/index.ts";
export { RpcClient } from "./client.ts";
export {
	RpcClientCore,
	type RpcClientOptions,
	type RpcCommandInput,
	RpcError,
	type RpcEventListener,
	type RpcExtensionUIListener,
	type RpcRequestOptions,
} from "./client-core.ts";
export type { RpcContext } from "./context.ts";
export {
	attachJsonlLineReader,
	JsonlLineSplitter,
	type LineInput,
	serializeJsonLine,
	streamLineInput,
	webStreamLineInput,
} from "./jsonl.ts";
export {
	errorResponse,
	type ParsedCommandLine,
	parseCommandLine,
	rpcCommandSchemas,
	successResponse,
} from "./protocol.ts";
export { type RpcModeOptions, runRpcMode } from "./server.ts";
export { type StdoutTakeover, takeOverStdout } from "./stdout-guard.ts";
export type * from "./types.ts";
export { RPC_COMMAND_TYPES, RPC_UI_DIALOG_METHODS } from "./types.ts";
export { createRpcUi, type RpcUi } from "./ui.ts";
