/**
 * One-line errors for failed installs. The install child (Bun's package manager, or npm through `npmCommand`) and
 * git report failures in their own words; these turn the common ones into one line naming the source and the
 * reason (not found, auth, network, integrity, disk full, corrupt package.json, missing git ref, git missing).
 */
import { errorMessage, firstLine, UserError } from "../util/index.ts";

interface Rule {
	test: RegExp;
	reason: (match: RegExpExecArray) => string;
}

const RULES: Rule[] = [
	{
		test: /IntegrityCheckFailed|Integrity check failed|EINTEGRITY|integrity checksum failed/i,
		reason: () => "integrity mismatch: the downloaded tarball does not match the registry's checksum; refused",
	},
	{ test: /ENOSPC|No space left on device|NoSpaceLeft/i, reason: () => "the disk is full (ENOSPC)" },
	{
		test: /\b(401|403)\b|E401|E403|Unauthorized|Forbidden|authentication failed/i,
		reason: (m) =>
			`the registry refused access${/^\d+$/.test(m[1] ?? "") ? ` (${m[1]})` : ""}: check the registry token in your .npmrc`,
	},
	{
		test: /\b404\b|E404|does not exist in this registry|Not Found|No matching version|No version matching|ETARGET/i,
		reason: () => "not found in the registry (404, or no version matches)",
	},
	{
		test: /(?:GET|fetching)\s+\S+\s+-\s+(5\d\d)\b|\bE(5\d\d)\b/,
		reason: (m) => `the registry failed (HTTP ${m[1] ?? m[2]}); try again later`,
	},
	{
		test: /ConnectionRefused|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|ConnectionClosed|FailedToOpenSocket|getaddrinfo|network|DNS/i,
		reason: () => "the registry cannot be reached (network error)",
	},
	{
		test: /EJSONPARSE|JSON Parse error|ParserError|Unexpected token|package\.json.*(invalid|malformed)|Failed to parse/i,
		reason: () => "a package.json is not valid JSON",
	},
];

/** The lines of the child's output worth quoting: its `error:` lines, else the last non-empty line. */
function gist(output: string): string {
	const lines = output.split("\n").map((l) => l.trim());
	const error = lines.find((l) => /^(error|npm ERR!|npm error|fatal)\b/i.test(l));
	return error ?? [...lines].reverse().find((l) => l !== "") ?? "";
}

/** The one-line error of a failed install child. */
export function installError(source: string, output: string, code: number): UserError {
	for (const rule of RULES) {
		const match = rule.test.exec(output);
		if (match) return new UserError(`Cannot install ${source}: ${rule.reason(match)}`);
	}
	const detail = gist(output);
	return new UserError(`Cannot install ${source}: the installer failed (exit ${code})${detail ? `: ${detail}` : ""}`);
}

/** A filesystem error during an install (copy, rename, write): one line, with disk-full called out. */
export function fsError(source: string, error: unknown): UserError {
	if (error instanceof UserError) return error;
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOSPC") return new UserError(`Cannot install ${source}: the disk is full (ENOSPC)`);
	return new UserError(`Cannot install ${source}: ${firstLine(errorMessage(error))}`);
}

/** The one-line error of a failed git command. */
export function gitError(source: string, output: string): UserError {
	if (/ENOSPC|No space left on device/i.test(output))
		return new UserError(`Cannot install ${source}: the disk is full`);
	if (/Authentication failed|Permission denied|could not read Username|403|401/i.test(output)) {
		return new UserError(`Cannot install ${source}: git access was refused (authentication)`);
	}
	if (/not found|does not appear to be a git repository|does not exist|Could not read from remote/i.test(output)) {
		return new UserError(`Cannot install ${source}: the repository was not found`);
	}
	if (/Could not resolve host|unable to access|Connection refused|timed out|Network is unreachable/i.test(output)) {
		return new UserError(`Cannot install ${source}: the repository cannot be reached (network error)`);
	}
	return new UserError(`Cannot install ${source}: git failed: ${gist(output) || "no output"}`);
}
