export * from "./commit.ts";
export {
	SessionBranchExistsError,
	SessionInvalidBranchError,
	SessionInvariantError,
	SessionPendingAssistantMessageError,
	SessionUnknownTargetError,
} from "./errors.ts";
export * from "./fork.ts";
export * from "./jsonl/index.ts";
export { MemorySessionRepo } from "./memory-repo.ts";
export { MemoryStorage } from "./memory-storage.ts";
export {
	MutationLine,
	StorageBackedSession,
	type StorageBackedSessionOptions,
} from "./session.ts";
export { addUsage, InMemoryStorageState } from "./state.ts";
export type * from "./types.ts";
export * from "./values.ts";
