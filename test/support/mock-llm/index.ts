export { type MockLlmOptions, type MockLlmServer, startMockLlm, vendorForPath } from "./server.ts";
export type * from "./types.ts";
