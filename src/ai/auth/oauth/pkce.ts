/**
 * PKCE (RFC 7636) with Web Crypto: a random verifier, its S256 challenge, and random `state` values. No
 * `node:crypto` (it costs start-up time in the binary; see docs/architecture.md).
 */

export interface Pkce {
	verifier: string;
	challenge: string;
}

/** base64url without padding. */
export function base64Url(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function randomBytes(count: number): Uint8Array {
	return crypto.getRandomValues(new Uint8Array(count));
}

/** The S256 challenge of a verifier. */
export async function pkceChallenge(verifier: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return base64Url(new Uint8Array(digest));
}

/** A fresh verifier (32 random bytes, 43 characters) and its challenge. */
export async function createPkce(): Promise<Pkce> {
	const verifier = base64Url(randomBytes(32));
	return { verifier, challenge: await pkceChallenge(verifier) };
}

/** A random `state` (hex) for one authorization request. */
export function randomState(bytes = 16): string {
	return Buffer.from(randomBytes(bytes)).toString("hex");
}
