/**
 * The signed assertion of the OAuth 2.0 JWT bearer grant (RFC 7523) for a Google service account: an RS256 JWT,
 * signed with Web Crypto (no `node:crypto` on the start-up path, no vendor SDK), with the account as issuer, the
 * token endpoint as audience and the requested scopes.
 */

/** The scope Vertex AI needs. */
export const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

/** How long an assertion is valid (Google accepts at most one hour). */
const ASSERTION_LIFETIME_S = 3600;

export interface AssertionInput {
	clientEmail: string;
	privateKeyId?: string;
	audience: string;
	scope: string;
	/** Seconds since the epoch. */
	now: number;
}

export function base64Url(bytes: Uint8Array | string): string {
	const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
	let binary = "";
	for (const byte of data) binary += String.fromCharCode(byte);
	return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The DER bytes of the first PEM block labelled `label`, or undefined when there is none or it is not base64. */
export function pemToDer(pem: string, label: string): Uint8Array<ArrayBuffer> | undefined {
	const match = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`).exec(
		pem.replace(/\\n/g, "\n"),
	);
	if (!match) return undefined;
	const body = (match[1] as string).replace(/\s+/g, "");
	try {
		const binary = atob(body);
		const out = new Uint8Array(binary.length);
		for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
		return out;
	} catch {
		return undefined;
	}
}

/** Imports a PKCS#8 RSA private key for RS256; undefined when the key is not one (the caller names the field). */
export async function importRs256Key(pem: string): Promise<CryptoKey | undefined> {
	const der = pemToDer(pem, "PRIVATE KEY");
	if (!der) return undefined;
	try {
		return await crypto.subtle.importKey("pkcs8", der, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
	} catch {
		return undefined;
	}
}

/** `header.claims.signature`, each base64url. */
export async function signAssertion(key: CryptoKey, input: AssertionInput): Promise<string> {
	const header = { alg: "RS256", typ: "JWT", ...(input.privateKeyId ? { kid: input.privateKeyId } : {}) };
	const claims = {
		iss: input.clientEmail,
		scope: input.scope,
		aud: input.audience,
		iat: input.now,
		exp: input.now + ASSERTION_LIFETIME_S,
	};
	const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`;
	const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(signingInput));
	return `${signingInput}.${base64Url(new Uint8Array(signature))}`;
}
