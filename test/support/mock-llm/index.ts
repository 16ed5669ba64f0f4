export { encodeEventMessage, eventFrame, exceptionFrame, MOCK_AWS_KEYS } from "./bedrock.ts";
export { codexFailedStream, codexToken, openaiCodexFormat } from "./openai-codex.ts";
export { type MockLlmOptions, type MockLlmServer, startMockLlm, vendorForPath } from "./server.ts";
export type * from "./types.ts";
