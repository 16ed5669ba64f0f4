/**
 * Version facts. Kept free of other imports so `pi --version` can answer without loading the app.
 */
import pkg from "../../package.json" with { type: "json" };

/** This implementation's own version (package.json). */
export const VERSION: string = pkg.version;

/** The pi release whose extension API, session format and RPC protocol we implement. */
export const PI_COMPAT_VERSION: string = pkg.piCompat;

/** The executable's name, used in help and error text. */
export const APP_NAME = "pi";

/** Set by the release build (`bun build --define`); absent in a build from a working tree or a run from source. */
declare const PI_BUILD_COMMIT: string | undefined;
declare const PI_BUILD_DATE: string | undefined;
declare const PI_BUILD_TARGET: string | undefined;

/** Where this binary came from: the release manifest records the same facts. */
export interface BuildInfo {
	version: string;
	/** The git commit built, or "unknown" outside a git checkout. */
	commit: string;
	/** The commit's date (ISO 8601), so a rebuild of the same commit gives the same binary. */
	date: string;
	/** The Bun runtime inside the binary. */
	bun: string;
	/** The Bun compile target (`bun-linux-x64`, …), or `source` when run by bun from the sources. */
	target: string;
}

export function buildInfo(): BuildInfo {
	return {
		version: VERSION,
		commit: typeof PI_BUILD_COMMIT === "string" ? PI_BUILD_COMMIT : "unknown",
		date: typeof PI_BUILD_DATE === "string" ? PI_BUILD_DATE : "unknown",
		bun: typeof Bun !== "undefined" ? Bun.version : "unknown",
		target: typeof PI_BUILD_TARGET === "string" ? PI_BUILD_TARGET : "source",
	};
}

/** `pi --version --verbose`: the version, then one `key: value` line per provenance fact. */
export function verboseVersion(): string {
	const info = buildInfo();
	return `${info.version}\ncommit: ${info.commit}\nbuilt: ${info.date}\nbun: ${info.bun}\ntarget: ${info.target}\n`;
}
