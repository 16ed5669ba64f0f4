export * from "./commit.ts";
export * from "./fork.ts";
export { MemorySessionRepo } from "./memory-repo.ts";
export { MemoryStorage } from "./memory-storage.ts";
export {
	MutationLine,
	SessionBranchExistsError,
	SessionInvalidBranchError,
	SessionInvariantError,
	SessionPendingAssistantMessageError,
	SessionUnknownTargetError,
	StorageBackedSession,
	type StorageBackedSessionOptions,
} from "./session.ts";
export { addUsage, InMemoryStorageState } from "./state.ts";
export type * from "./types.ts";
export * from "./values.ts";
