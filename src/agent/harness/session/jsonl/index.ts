export {
	JSONL_FORMAT_VERSION,
	JSONL_STORAGE_VERSION,
	type JsonlSessionCreateOptions,
	type JsonlSessionListOptions,
	type JsonlSessionMetadata,
	type JsonlSessionRepoOptions,
	type JsonlStorageHeader,
} from "./codec.ts";
export { JsonlSessionRepo } from "./repo.ts";
export { JsonlStorage, type JsonlStorageOptions } from "./storage.ts";
