/** Storing the credential a login produced (`createModels().login`). */
import { ModelsError } from "../auth/provider-auth.ts";
import type { CredentialStore, StoredCredential } from "../auth/provider-auth-types.ts";

/**
 * Writes `credential` for `providerId`. An abort before the store starts writing cancels (rejects with the
 * signal's reason); once writing has started the write completes. Store failures become `ModelsError("auth")`.
 */
export async function storeLogin(
	credentials: CredentialStore,
	providerId: string,
	credential: StoredCredential,
	signal: AbortSignal,
): Promise<void> {
	// Once the store has started writing, an abort no longer cancels the login.
	let writing = false;
	let markWriting: () => void = () => {};
	const started = new Promise<void>((resolve) => {
		markWriting = resolve;
	});
	const mutation = credentials.modify(
		providerId,
		async () => {
			writing = true;
			markWriting();
			return credential;
		},
		{ signal },
	);
	mutation.catch(() => {});
	try {
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				if (!writing) reject(signal.reason);
			};
			signal.addEventListener("abort", onAbort, { once: true });
			Promise.race([started, mutation]).then(
				() => {
					signal.removeEventListener("abort", onAbort);
					resolve();
				},
				(error) => {
					signal.removeEventListener("abort", onAbort);
					reject(error);
				},
			);
			if (signal.aborted) onAbort();
		});
		await mutation;
	} catch (error) {
		signal.throwIfAborted();
		throw new ModelsError("auth", `Credential store modify failed for ${providerId}`, { cause: error });
	}
}
