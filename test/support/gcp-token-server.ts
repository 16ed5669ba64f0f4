/**
 * A loopback stand-in for Google's OAuth 2.0 token endpoint (`POST /token`, form-encoded), for Application Default
 * Credentials tests: the JWT bearer grant of a service account (the assertion's RS256 signature is verified with
 * the public key of the test key pair, and its claims are checked) and the refresh-token grant of gcloud user
 * credentials. Every request is recorded; `fail` makes the next answers an OAuth error.
 */
import { join } from "node:path";

export interface TokenRequest {
	grantType: string;
	form: Record<string, string>;
	/** The verified claims of a JWT bearer assertion. */
	claims?: Record<string, unknown>;
	header?: Record<string, unknown>;
	/** Why the assertion was refused, when it was. */
	rejected?: string;
}

export interface TokenServer {
	url: string;
	tokenUri: string;
	requests: TokenRequest[];
	/** The access token the n-th successful grant returns (1-based). */
	tokenFor(n: number): string;
	/** The next grants answer this OAuth error with this status (until cleared with undefined). */
	fail(error: { status: number; error: string; description?: string } | undefined): void;
	/** Seconds each token lives (default 3600). */
	expiresIn: number;
	/** Milliseconds to wait before answering (abort tests). */
	delayMs: number;
	stop(): void;
}

export interface TestKeyPair {
	privateKeyPem: string;
	publicKey: CryptoKey;
}

function pem(label: string, der: ArrayBuffer): string {
	const b64 = Buffer.from(der).toString("base64");
	const lines = b64.match(/.{1,64}/g) ?? [];
	return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

export async function makeTestKeyPair(): Promise<TestKeyPair> {
	const pair = (await crypto.subtle.generateKey(
		{ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
		true,
		["sign", "verify"],
	)) as CryptoKeyPair;
	return {
		privateKeyPem: pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", pair.privateKey)),
		publicKey: pair.publicKey,
	};
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
	const bytes = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
	const out = new Uint8Array(new ArrayBuffer(bytes.length));
	out.set(bytes);
	return out;
}

export function startTokenServer(publicKey: CryptoKey | undefined): TokenServer {
	let granted = 0;
	let failure: { status: number; error: string; description?: string } | undefined;
	const requests: TokenRequest[] = [];
	const state = { expiresIn: 3600, delayMs: 0 };
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(req) {
			const url = new URL(req.url);
			if (req.method !== "POST" || url.pathname !== "/token") return new Response("not found", { status: 404 });
			const form = Object.fromEntries(new URLSearchParams(await req.text()));
			const record: TokenRequest = { grantType: form.grant_type ?? "", form };
			requests.push(record);
			if (state.delayMs > 0) await Bun.sleep(state.delayMs);
			const refuse = (status: number, error: string, description: string) =>
				Response.json({ error, error_description: description }, { status });
			if (failure) return refuse(failure.status, failure.error, failure.description ?? "refused by the test");
			if (record.grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
				const [h, c, s] = (form.assertion ?? "").split(".");
				if (!h || !c || !s || !publicKey) {
					record.rejected = "malformed assertion";
					return refuse(400, "invalid_grant", "malformed assertion");
				}
				const ok = await crypto.subtle.verify(
					"RSASSA-PKCS1-v1_5",
					publicKey,
					fromBase64Url(s),
					new TextEncoder().encode(`${h}.${c}`),
				);
				if (!ok) {
					record.rejected = "bad signature";
					return refuse(400, "invalid_grant", "Invalid JWT Signature.");
				}
				record.header = JSON.parse(Buffer.from(fromBase64Url(h)).toString("utf8"));
				record.claims = JSON.parse(Buffer.from(fromBase64Url(c)).toString("utf8"));
			} else if (record.grantType === "refresh_token") {
				if (!form.refresh_token || !form.client_id || !form.client_secret) {
					return refuse(400, "invalid_request", "missing fields");
				}
			} else {
				return refuse(400, "unsupported_grant_type", record.grantType);
			}
			granted++;
			return Response.json({
				access_token: `ya29.test-token-${granted}`,
				expires_in: state.expiresIn,
				token_type: "Bearer",
			});
		},
	});
	const base = `http://127.0.0.1:${server.port}`;
	return {
		url: base,
		tokenUri: `${base}/token`,
		requests,
		tokenFor: (n) => `ya29.test-token-${n}`,
		fail: (f) => {
			failure = f;
		},
		get expiresIn() {
			return state.expiresIn;
		},
		set expiresIn(v: number) {
			state.expiresIn = v;
		},
		get delayMs() {
			return state.delayMs;
		},
		set delayMs(v: number) {
			state.delayMs = v;
		},
		stop: () => server.stop(true),
	};
}

/** A service account key file (the shape `gcloud iam service-accounts keys create` writes). */
export function serviceAccountJson(privateKeyPem: string, tokenUri: string, extra: Record<string, unknown> = {}) {
	return JSON.stringify(
		{
			type: "service_account",
			project_id: "file-project",
			private_key_id: "key-id-1",
			private_key: privateKeyPem,
			client_email: "pi-test@file-project.iam.gserviceaccount.com",
			client_id: "1234567890",
			auth_uri: "https://accounts.google.com/o/oauth2/auth",
			token_uri: tokenUri,
			...extra,
		},
		null,
		2,
	);
}

/** gcloud's application default user credentials (`gcloud auth application-default login`). */
export function authorizedUserJson(extra: Record<string, unknown> = {}) {
	return JSON.stringify({
		type: "authorized_user",
		client_id: "client-id.apps.googleusercontent.com",
		client_secret: "d-FL95Q19q7MQmFpd7hHD0Ty",
		refresh_token: "1//refresh-token-secret-value",
		quota_project_id: "quota-project",
		...extra,
	});
}

/** Writes gcloud's well-known ADC file under `home`. */
export function wellKnownAdcFile(home: string): string {
	return join(home, ".config", "gcloud", "application_default_credentials.json");
}
