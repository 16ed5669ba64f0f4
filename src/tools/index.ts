export { normalizeToolPath, readPathVariants, resolveToolPath } from "./paths.ts";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	truncateHead,
	truncateLine,
	truncateTail,
} from "./truncate.ts";
export type * from "./types.ts";
