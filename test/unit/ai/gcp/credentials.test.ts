/**
 * Application Default Credentials without an SDK: which file is used, what a malformed file says (file and field,
 * never a secret), the service account's signed JWT (verified by the loopback token endpoint with the public key),
 * the user credentials' refresh grant, the in-memory token cache, and token endpoint failures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	adcFilePath,
	CLOUD_PLATFORM_SCOPE,
	clearAccessTokenCache,
	GOOGLE_TOKEN_URL,
	GoogleCredentialsError,
	googleAccessToken,
	hasVertexAmbientAuth,
	loadAdcCredentials,
	parseAdcCredentials,
} from "../../../../src/ai/gcp/index.ts";
import { getEnvApiKey } from "../../../../src/ai/index.ts";
import { makeTempDir } from "../../../helpers/tmp.ts";
import {
	authorizedUserJson,
	makeTestKeyPair,
	serviceAccountJson,
	startTokenServer,
	type TestKeyPair,
	type TokenServer,
	wellKnownAdcFile,
} from "../../../support/gcp-token-server.ts";

let keys: TestKeyPair;
let server: TokenServer;
beforeAll(async () => {
	keys = await makeTestKeyPair();
	server = startTokenServer(keys.publicKey);
});
afterAll(() => server.stop());
beforeEach(() => {
	clearAccessTokenCache();
	server.fail(undefined);
	server.expiresIn = 3600;
	server.delayMs = 0;
});

function writeFile(text: string): string {
	const path = join(makeTempDir("gcp-cred-"), "key.json");
	writeFileSync(path, text);
	return path;
}

function errorOf(fn: () => unknown): string {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(GoogleCredentialsError);
		return (error as Error).message;
	}
	throw new Error("expected an error");
}

describe("which credentials file", () => {
	test("GOOGLE_APPLICATION_CREDENTIALS wins, else gcloud's well-known file under HOME", () => {
		expect(adcFilePath({ GOOGLE_APPLICATION_CREDENTIALS: "/x/key.json", HOME: "/h" })).toEqual({
			path: "/x/key.json",
			explicit: true,
		});
		expect(adcFilePath({ HOME: "/h" }).path).toBe("/h/.config/gcloud/application_default_credentials.json");
	});

	test("missing files are named, with what to do", () => {
		const home = makeTempDir("gcp-home-");
		expect(errorOf(() => loadAdcCredentials({ HOME: home }))).toBe(
			`No Google Application Default Credentials: ${wellKnownAdcFile(home)} does not exist; run \`gcloud auth application-default login\` or set GOOGLE_APPLICATION_CREDENTIALS`,
		);
		expect(errorOf(() => loadAdcCredentials({ GOOGLE_APPLICATION_CREDENTIALS: join(home, "nope.json") }))).toBe(
			`Google credentials file ${join(home, "nope.json")} (GOOGLE_APPLICATION_CREDENTIALS) does not exist`,
		);
	});

	test("ambient auth as pi counts it: file + project + location; the file's project also counts", () => {
		const home = makeTempDir("gcp-home-");
		const env = { HOME: home, GOOGLE_CLOUD_LOCATION: "us-central1", GOOGLE_CLOUD_PROJECT: "p" };
		expect(hasVertexAmbientAuth(env)).toBe(false);
		mkdirSync(join(home, ".config", "gcloud"), { recursive: true });
		writeFileSync(wellKnownAdcFile(home), authorizedUserJson({ quota_project_id: undefined }));
		expect(hasVertexAmbientAuth(env)).toBe(true);
		expect(getEnvApiKey("google-vertex", env)).toBe("<authenticated>");
		expect(hasVertexAmbientAuth({ ...env, GOOGLE_CLOUD_LOCATION: "" })).toBe(false);
		expect(hasVertexAmbientAuth({ ...env, GOOGLE_CLOUD_PROJECT: undefined })).toBe(false);
		writeFileSync(wellKnownAdcFile(home), authorizedUserJson());
		expect(hasVertexAmbientAuth({ ...env, GOOGLE_CLOUD_PROJECT: undefined })).toBe(true);
		// An API key is still the key.
		expect(getEnvApiKey("google-vertex", { ...env, GOOGLE_CLOUD_API_KEY: "k" })).toBe("k");
	});
});

describe("malformed files: one line naming the file and the field, no secret", () => {
	const secret = "-----BEGIN PRIVATE KEY-----\nTOP-SECRET-MATERIAL\n-----END PRIVATE KEY-----\n";
	const cases: [string, string, string][] = [
		["not JSON", `{"private_key": "${"TOP-SECRET-MATERIAL"}"`, "is not valid JSON"],
		["an array", "[1]", "must hold a JSON object"],
		["no type", JSON.stringify({ private_key: secret }), 'field "type" is missing'],
		["unknown type", JSON.stringify({ type: "external_account" }), 'field "type" is "external_account"'],
		[
			"service account without client_email",
			JSON.stringify({ type: "service_account", private_key: secret }),
			'field "client_email" is missing',
		],
		[
			"service account with a key that is not PEM",
			JSON.stringify({ type: "service_account", private_key: "TOP-SECRET-MATERIAL", client_email: "a@b" }),
			'field "private_key" is not a PEM "PRIVATE KEY" (PKCS#8) block',
		],
		[
			"private_key of the wrong type",
			JSON.stringify({ type: "service_account", private_key: 5, client_email: "a@b" }),
			'field "private_key" must be a string',
		],
		[
			"user credentials without refresh_token",
			JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "TOP-SECRET-MATERIAL" }),
			'field "refresh_token" is missing',
		],
		[
			"a token_uri that is not a URL",
			JSON.stringify({ type: "authorized_user", token_uri: "TOP-SECRET-MATERIAL" }),
			'field "token_uri" is not an http(s) URL',
		],
	];
	for (const [name, text, reason] of cases) {
		test(name, () => {
			const file = writeFile(text);
			const message = errorOf(() => loadAdcCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file }));
			expect(message).toContain(file);
			expect(message).toContain(reason);
			expect(message).not.toContain("TOP-SECRET-MATERIAL");
			expect(message.includes("\n")).toBe(false);
		});
	}

	test("a PEM block that is not an RSA key fails at signing, naming the field", async () => {
		const file = writeFile(
			serviceAccountJson("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", server.tokenUri),
		);
		const credentials = loadAdcCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file });
		await expect(googleAccessToken(credentials)).rejects.toThrow(
			`Google credentials file ${file}: field "private_key" is not a usable RSA private key`,
		);
		expect(server.requests.length).toBe(0);
	});
});

describe("service account: signed JWT → token", () => {
	test("the assertion verifies with the public key and carries pi's claims; the token is cached", async () => {
		const before = server.requests.length;
		const file = writeFile(serviceAccountJson(keys.privateKeyPem, server.tokenUri));
		const credentials = loadAdcCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file });
		const now = 1_800_000_000_000;
		const token = await googleAccessToken(credentials, { now: () => now });
		const request = server.requests[before];
		expect(request?.rejected).toBeUndefined();
		expect(request?.grantType).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
		expect(request?.header).toEqual({ alg: "RS256", typ: "JWT", kid: "key-id-1" });
		expect(request?.claims).toEqual({
			iss: "pi-test@file-project.iam.gserviceaccount.com",
			scope: CLOUD_PLATFORM_SCOPE,
			aud: server.tokenUri,
			iat: now / 1000,
			exp: now / 1000 + 3600,
		});
		// Cached until five minutes before expiry; concurrent callers share one request.
		const again = await Promise.all([
			googleAccessToken(credentials, { now: () => now + 54 * 60_000 }),
			googleAccessToken(credentials, { now: () => now + 54 * 60_000 }),
		]);
		expect(again).toEqual([token, token]);
		expect(server.requests.length).toBe(before + 1);
		const [a, b] = await Promise.all([
			googleAccessToken(credentials, { now: () => now + 56 * 60_000 }),
			googleAccessToken(credentials, { now: () => now + 56 * 60_000 }),
		]);
		expect(a).not.toBe(token);
		expect(b).toBe(a);
		expect(server.requests.length).toBe(before + 2);
	});

	test("a key that is not the account's is refused; the message has no assertion or key", async () => {
		const other = await makeTestKeyPair();
		const file = writeFile(serviceAccountJson(other.privateKeyPem, server.tokenUri));
		const credentials = loadAdcCredentials({ GOOGLE_APPLICATION_CREDENTIALS: file });
		let message = "";
		try {
			await googleAccessToken(credentials);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toBe(
			`Google token API error 400 from ${server.tokenUri} for the service account in ${file}: invalid_grant: Invalid JWT Signature.`,
		);
		const assertion = server.requests.at(-1)?.form.assertion ?? "";
		expect(assertion.length).toBeGreaterThan(100);
		expect(message).not.toContain(assertion.split(".")[2] as string);
		expect(message).not.toContain("PRIVATE KEY");
	});
});

describe("gcloud user credentials: refresh grant", () => {
	test("the refresh token is traded at the token endpoint (PI_OAUTH_TEST_ORIGIN redirects Google's)", async () => {
		const credentials = parseAdcCredentials(authorizedUserJson(), "/adc.json");
		expect(credentials.tokenUri).toBe(GOOGLE_TOKEN_URL);
		const before = server.requests.length;
		const token = await googleAccessToken(credentials, { env: { PI_OAUTH_TEST_ORIGIN: server.url } });
		expect(token).toMatch(/^ya29\.test-token-\d+$/);
		expect(server.requests[before]?.form).toEqual({
			grant_type: "refresh_token",
			client_id: "client-id.apps.googleusercontent.com",
			client_secret: "d-FL95Q19q7MQmFpd7hHD0Ty",
			refresh_token: "1//refresh-token-secret-value",
		});
	});

	test("a revoked refresh token says how to log in again, without the secrets it sent", async () => {
		server.fail({ status: 400, error: "invalid_grant", description: "Token has been expired or revoked." });
		const credentials = parseAdcCredentials(authorizedUserJson({ token_uri: server.tokenUri }), "adc.json");
		let message = "";
		try {
			await googleAccessToken(credentials);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toBe(
			`Google token API error 400 from ${server.tokenUri} for the user credentials in adc.json: invalid_grant: Token has been expired or revoked.; run \`gcloud auth application-default login\` again`,
		);
	});

	test("an endpoint that echoes the secrets has them redacted", async () => {
		server.fail({
			status: 401,
			error: "invalid_client",
			description: "bad d-FL95Q19q7MQmFpd7hHD0Ty for 1//refresh-token-secret-value",
		});
		const credentials = parseAdcCredentials(authorizedUserJson({ token_uri: server.tokenUri }), "/adc.json");
		const message = await googleAccessToken(credentials).catch((error: Error) => error.message);
		expect(message).toContain("invalid_client: bad [redacted] for [redacted]");
	});

	test("an unreachable endpoint names it; an abort stops the wait", async () => {
		const credentials = parseAdcCredentials(authorizedUserJson({ token_uri: "http://127.0.0.1:9/token" }), "/adc.json");
		const message = await googleAccessToken(credentials).catch((error: Error) => error.message);
		expect(message).toStartWith(
			"Google token request to http://127.0.0.1:9/token failed (user credentials in /adc.json): ",
		);
		server.delayMs = 2000;
		const slow = parseAdcCredentials(authorizedUserJson({ token_uri: server.tokenUri }), "/slow.json");
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 50);
		await expect(googleAccessToken(slow, { signal: controller.signal })).rejects.toBeDefined();
		expect(Date.now() - started).toBeLessThan(1500);
	});
});
