/** SDK helpers around stored credentials (`auth.json`). */
import { join } from "node:path";
import { expandHome, readFileSync } from "../util/index.ts";
import { getAgentDir } from "./paths.ts";

/**
 * What auth.json stores for one provider (an `{ type: "api_key", key }` or OAuth record), read once and
 * synchronously, with nothing resolved; undefined when the file or the entry is missing or unreadable.
 */
export function readStoredCredential(
	providerId: string,
	authPath: string = join(getAgentDir(), "auth.json"),
): Record<string, unknown> | undefined {
	try {
		const text = readFileSync(expandHome(authPath), "utf8");
		const data = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as Record<string, unknown>;
		return data[providerId] as Record<string, unknown> | undefined;
	} catch {
		return undefined;
	}
}

export type CredentialSynchronizationOperation = "login" | "logout" | "setRuntimeApiKey" | "removeRuntimeApiKey";

/** A credential change that was made but could not be applied to this process's state; `cause` says why. */
export class CredentialSynchronizationError extends Error {
	readonly providerId: string;
	readonly operation: CredentialSynchronizationOperation;
	readonly credential: Record<string, unknown> | undefined;

	constructor(
		providerId: string,
		operation: CredentialSynchronizationOperation,
		credential: Record<string, unknown> | undefined,
		options: ErrorOptions,
	) {
		super(`Credential ${operation} committed for ${providerId}, but local synchronization failed`, options);
		this.name = "CredentialSynchronizationError";
		this.providerId = providerId;
		this.operation = operation;
		this.credential = credential;
	}
}
