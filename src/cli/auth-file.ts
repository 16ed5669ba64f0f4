/**
 * A broken `auth.json` stops the run before anything is sent: with its credentials unreadable, a request would
 * go out with no key (or another source's key) and fail in a confusing way, or succeed with the wrong account.
 * The error is one line naming the file and where it is broken: the line and column of a JSON syntax error, or the
 * provider entry and field of a wrong type. The file is left exactly as it is.
 */
import type { AuthFileIssue } from "../ai/index.ts";
import { describeInvalidJson, readFileSync, UserError } from "../util/index.ts";

export function authFileMessage(
	path: string,
	issue: AuthFileIssue,
	readText = () => readFileSync(path, "utf8"),
): string {
	switch (issue.kind) {
		case "syntax": {
			const invalid = describeInvalidJson(readText()) ?? issue.reason;
			return `Error: ${path}: ${invalid}; fix or remove the file (it was not changed)`;
		}
		case "entry":
			return `Error: ${path}: "${issue.provider}": ${issue.reason}; fix or remove that entry (the file was not changed)`;
		default:
			return `Error: ${path}: ${issue.reason}`;
	}
}

/** Throws the first problem of auth.json as a one-line user error. */
export function assertAuthFileUsable(path: string, issues: readonly AuthFileIssue[]): void {
	const [first] = issues;
	if (first) throw new UserError(authFileMessage(path, first));
}
