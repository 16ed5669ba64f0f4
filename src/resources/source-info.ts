/** Source information for resources that come from no file on disk (SDK-made skills, prompts, tools). */
import type { SourceInfo, SourceOrigin, SourceScope } from "./types.ts";

/** A `SourceInfo` for `path` made up by the caller: scope "temporary" and origin "top-level" unless given. */
export function createSyntheticSourceInfo(
	path: string,
	options: { source: string; scope?: SourceScope; origin?: SourceOrigin; baseDir?: string },
): SourceInfo {
	return {
		path,
		source: options.source,
		scope: options.scope ?? "temporary",
		origin: options.origin ?? "top-level",
		// pi sets the key even when undefined; keep the same shape.
		baseDir: options.baseDir as string,
	};
}
