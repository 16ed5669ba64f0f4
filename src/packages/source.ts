/**
 * Package sources as pi 0.87.1 reads them, and their identities:
 * - `npm:name[@version|@range|@tag]` (scoped names too) → npm, identity `npm:<name>`;
 * - `git:host/owner/repo[@ref]`, `git:git@host:owner/repo[@ref]`, and the URLs `https://`, `http://`, `ssh://`,
 *   `git://`, `file://` and `git@host:path` (each with an optional `@ref`) → git, identity `git:<host>/<path>`
 *   (no ref, no `.git`, the host in lower case, so an https and an ssh spelling of one repository are one package);
 * - anything else is a local path (absolute, `~`, or relative to the folder given), identity `local:<absolute>`.
 * Values that could smuggle an option or a shell word into the install child or git (a leading `-`, `--upload-pack`,
 * shell metacharacters, control characters, `..` segments) are refused with a `UserError` naming the source.
 */
import { isAbsolute, resolve } from "node:path";
import { expandHome, UserError } from "../util/index.ts";
import type { GitSource, NpmSource, PackageSource } from "./types.ts";

const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** Versions, ranges and dist-tags: semver characters, spaces between range parts, no shell words. */
const NPM_VERSION = /^[A-Za-z0-9][A-Za-z0-9.^~<>=*+| -]*$|^[\^~<>=*][A-Za-z0-9.^~<>=*+| -]*$/;
const GIT_REF = /^[A-Za-z0-9_][A-Za-z0-9._/+-]*$/;
const PATH_SEGMENT = /^[A-Za-z0-9_~][A-Za-z0-9._~+-]*$/;
const HOST = /^[A-Za-z0-9][A-Za-z0-9.-]*(?::\d+)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const UNSAFE = /[\u0000-\u001f\u007f;&|`$<>(){}\\'"!*?\s]/;

const refuse = (raw: string, reason: string): never => {
	throw new UserError(`Invalid package source "${raw}": ${reason}`);
};

/** Whether a string is written as a package source rather than a local path. */
export function isRemoteSource(raw: string): boolean {
	return /^(npm:|git:|https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|git@)/.test(raw);
}

function parseNpm(raw: string): NpmSource {
	const spec = raw.slice("npm:".length).trim();
	if (spec === "") refuse(raw, "no package name after npm:");
	const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
	const name = at >= 0 ? spec.slice(0, at) : spec;
	const version = at >= 0 ? spec.slice(at + 1) : undefined;
	if (!NPM_NAME.test(name)) refuse(raw, `"${name}" is not a valid npm package name`);
	// A word starting with `-` would read as an option of the install child (`1 --registry=…`); `1 - 2` ranges stay.
	const optionWord = version !== undefined && /(^|\s)-\S/.test(version);
	if (
		version !== undefined &&
		(version === "" || optionWord || !NPM_VERSION.test(version) || /[;&`$\\]/.test(version))
	) {
		refuse(raw, `"${version}" is not a version, range or tag`);
	}
	return {
		type: "npm",
		raw,
		name,
		...(version !== undefined ? { version } : {}),
		spec: version !== undefined ? `${name}@${version}` : name,
		pinned: version !== undefined && /^v?\d+\.\d+\.\d+(?:[-+][A-Za-z0-9.+-]*)?$/.test(version),
	};
}

/** Splits `path[@ref]`: the ref is what follows the last `@` of the path part. */
function splitRef(raw: string, pathPart: string): { path: string; ref?: string } {
	const at = pathPart.lastIndexOf("@");
	if (at < 0) return { path: pathPart };
	const ref = pathPart.slice(at + 1);
	if (ref === "" || !GIT_REF.test(ref) || ref.includes("..") || ref.endsWith(".lock")) {
		refuse(raw, `"${ref}" is not a git ref`);
	}
	return { path: pathPart.slice(0, at), ref };
}

function cleanRepoPath(raw: string, path: string): string {
	const trimmed = path
		.replace(/^\/+/, "")
		.replace(/\/+$/, "")
		.replace(/\.git$/, "");
	const segments = trimmed.split("/");
	if (trimmed === "" || segments.some((s) => !PATH_SEGMENT.test(s) || s === "." || s === "..")) {
		refuse(raw, `"${path}" is not a repository path`);
	}
	return trimmed;
}

function gitSource(raw: string, repo: string, host: string, path: string, ref: string | undefined): GitSource {
	if (!HOST.test(host) && host !== "local") refuse(raw, `"${host}" is not a host name`);
	return { type: "git", raw, repo, host: host.toLowerCase(), path, ...(ref ? { ref } : {}), pinned: ref !== undefined };
}

function parseGit(raw: string): GitSource {
	const body = raw.startsWith("git:") && !raw.startsWith("git://") ? raw.slice("git:".length) : raw;
	if (body.startsWith("-") || /--upload-pack|--config|-c\s/.test(body)) refuse(raw, "it looks like an option");
	if (UNSAFE.test(body)) refuse(raw, "it holds characters a repository address cannot");
	// scp-like: git@host:owner/repo[@ref]
	const scp = /^([A-Za-z0-9._-]+)@([^:/]+):(.+)$/.exec(body);
	if (scp && !body.includes("://")) {
		const [, user, host, rest] = scp as unknown as [string, string, string, string];
		const { path, ref } = splitRef(raw, rest);
		const clean = cleanRepoPath(raw, path);
		return gitSource(raw, `${user}@${host}:${clean}`, host, clean, ref);
	}
	const url = /^(https?|ssh|git|file):\/\/(.*)$/.exec(body);
	if (url) {
		const [, scheme, rest] = url as unknown as [string, string, string];
		if (scheme === "file") {
			const { path, ref } = splitRef(raw, rest);
			if (!path.startsWith("/") || path.split("/").includes("..")) refuse(raw, "a file:// URL needs an absolute path");
			const clean = path.replace(/\/+$/, "");
			return gitSource(raw, `file://${clean}`, "local", cleanRepoPath(raw, clean), ref);
		}
		const slash = rest.indexOf("/");
		if (slash <= 0) refuse(raw, "no repository path after the host");
		const authority = rest.slice(0, slash);
		const host = authority.includes("@") ? authority.slice(authority.lastIndexOf("@") + 1) : authority;
		// ssh reads a user name starting with `-` as one of its options (`-oProxyCommand=…`).
		if (authority.startsWith("-")) refuse(raw, "it looks like an option");
		const { path, ref } = splitRef(raw, rest.slice(slash));
		const clean = cleanRepoPath(raw, path);
		return gitSource(raw, `${scheme}://${authority}/${clean}`, host, clean, ref);
	}
	// git:host/owner/repo[@ref] → https
	const slash = body.indexOf("/");
	if (slash <= 0) refuse(raw, "expected git:host/owner/repo[@ref]");
	const host = body.slice(0, slash);
	const { path, ref } = splitRef(raw, body.slice(slash));
	const clean = cleanRepoPath(raw, path);
	return gitSource(raw, `https://${host}/${clean}`, host, clean, ref);
}

/**
 * Parses a source. `baseDir` is the folder relative local paths resolve from (the settings file's folder, or cwd for
 * a source typed on the command line).
 */
export function parseSource(raw: string, baseDir: string): PackageSource {
	const text = raw.trim();
	if (text === "") throw new UserError("Invalid package source: it is empty");
	if (text.startsWith("-")) refuse(raw, "a source cannot start with '-' (it would read as an option)");
	if (text.startsWith("npm:")) return parseNpm(text);
	if (isRemoteSource(text)) return parseGit(text);
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
	if (/[\u0000-\u001f]/.test(text)) refuse(raw, "it holds control characters");
	const expanded = expandHome(text);
	return { type: "local", raw: text, path: isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded) };
}

/** The identity that makes two spellings of a source one package. */
export function identityOf(source: PackageSource): string {
	if (source.type === "npm") return `npm:${source.name}`;
	if (source.type === "git") return `git:${source.host}/${source.path}`;
	return `local:${source.path}`;
}

/** A short label for messages: the source as written. */
export const describeSource = (source: PackageSource): string => source.raw;
