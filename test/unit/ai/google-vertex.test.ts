/**
 * `google-vertex` with Application Default Credentials against the mock LLM and a loopback token endpoint: the
 * bearer token from a service account or gcloud user credentials, one token for several requests, the Vertex URL
 * for each kind of location, and failures (credentials, token endpoint, abort) as one-line error messages that
 * never contain a secret. The API-key mode is compared with pi-ai itself in google-vertex-vs-pi.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { clearAccessTokenCache } from "../../../src/ai/gcp/index.ts";
import {
	type AssistantMessage,
	type Context,
	isContextOverflow,
	isRetryableAssistantError,
	type Model,
	streamGoogleVertex,
	streamSimpleGoogleVertex,
} from "../../../src/ai/index.ts";
import { modelPath, vertexHost, vertexStreamUrl } from "../../../src/ai/providers/google-vertex.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import {
	authorizedUserJson,
	makeTestKeyPair,
	serviceAccountJson,
	startTokenServer,
	type TestKeyPair,
	type TokenServer,
} from "../../support/gcp-token-server.ts";
import { type MockLlmServer, startMockLlm, vendorForPath } from "../../support/mock-llm/index.ts";

let keys: TestKeyPair;
let tokens: TokenServer;
let llm: MockLlmServer;
beforeAll(async () => {
	keys = await makeTestKeyPair();
	tokens = startTokenServer(keys.publicKey);
	llm = startMockLlm();
});
afterAll(() => {
	tokens.stop();
	llm.stop();
});
beforeEach(() => {
	clearAccessTokenCache();
	tokens.fail(undefined);
	tokens.delayMs = 0;
});

const model = (over: Partial<Model> = {}): Model => ({
	id: "gemini-2.5-flash",
	name: "Gemini 2.5 Flash",
	api: "google-vertex",
	provider: "google-vertex",
	baseUrl: llm.url,
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
	contextWindow: 1048576,
	maxTokens: 65536,
	...over,
});
const context: Context = { systemPrompt: "be brief", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

function credentialsFile(text: string): string {
	const path = join(makeTempDir("vertex-cred-"), "credentials.json");
	writeFileSync(path, text);
	return path;
}

const adcEnv = (file: string, over: Record<string, string | undefined> = {}) => ({
	GOOGLE_APPLICATION_CREDENTIALS: file,
	GOOGLE_CLOUD_PROJECT: "my-project",
	GOOGLE_CLOUD_LOCATION: "us-central1",
	...over,
});

async function run(
	options: Record<string, unknown>,
	m = model(),
): Promise<{ events: string; message: AssistantMessage }> {
	const s = streamGoogleVertex(m, context, options);
	const events: unknown[] = [];
	for await (const e of s) events.push(e);
	return { events: JSON.stringify(events), message: await s.result() };
}

describe("where a Vertex request goes", () => {
	test("regional, global and multi-regional hosts with the project and location; model paths", () => {
		const scope = { project: "p-1", location: "us-central1" };
		const m = { id: "gemini-2.5-pro", baseUrl: "https://{location}-aiplatform.googleapis.com" };
		expect(vertexStreamUrl(m, scope)).toBe(
			"https://us-central1-aiplatform.googleapis.com/v1/projects/p-1/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		);
		expect(vertexStreamUrl(m, { project: "p-1", location: "global" })).toBe(
			"https://aiplatform.googleapis.com/v1/projects/p-1/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		);
		expect(vertexHost("eu")).toBe("https://aiplatform.eu.rep.googleapis.com");
		expect(vertexHost("us")).toBe("https://aiplatform.us.rep.googleapis.com");
		// An API key (express mode) has no project.
		expect(vertexStreamUrl(m, undefined)).toBe(
			"https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		);
		// A real base URL replaces the host; its own version is kept.
		expect(vertexStreamUrl({ id: "g", baseUrl: "https://proxy.example/vertex/" }, scope)).toBe(
			"https://proxy.example/vertex/v1/publishers/google/models/g:streamGenerateContent?alt=sse",
		);
		expect(vertexStreamUrl({ id: "g", baseUrl: "https://proxy.example/v1beta1" }, scope)).toBe(
			"https://proxy.example/v1beta1/publishers/google/models/g:streamGenerateContent?alt=sse",
		);
		expect(modelPath("anthropic/claude-x")).toBe("publishers/anthropic/models/claude-x");
		// The mock LLM answers both forms of the path in Gemini's format.
		expect(
			vendorForPath("/v1/projects/p-1/locations/us-central1/publishers/google/models/g:streamGenerateContent"),
		).toBe("google");
		expect(modelPath("projects/p/locations/l/endpoints/123")).toBe("projects/p/locations/l/endpoints/123");
		expect(vertexStreamUrl({ id: "projects/p/locations/l/endpoints/9", baseUrl: "" }, scope)).toBe(
			"https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/9:streamGenerateContent?alt=sse",
		);
	});
});

describe("Application Default Credentials", () => {
	test("service account: bearer token on the request; one token for several requests", async () => {
		const file = credentialsFile(serviceAccountJson(keys.privateKeyPem, tokens.tokenUri));
		const before = tokens.requests.length;
		llm.push({ kind: "reply", thinking: "hmm", text: "Hello!" }, { kind: "reply", text: "Again" });
		const first = await run({ apiKey: "<authenticated>", env: adcEnv(file) });
		expect(first.message.stopReason).toBe("stop");
		expect(first.message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
		const request = llm.requests.at(-1);
		expect(request?.path).toBe("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request?.headers.authorization).toMatch(/^Bearer ya29\.test-token-\d+$/);
		expect(request?.headers["x-goog-api-key"]).toBeUndefined();
		const second = await streamSimpleGoogleVertex(model(), context, {
			apiKey: "gcp-vertex-credentials",
			env: adcEnv(file),
			reasoning: "minimal",
		} as never).result();
		expect(second.stopReason).toBe("stop");
		expect(llm.requests.at(-1)?.headers.authorization).toBe(request?.headers.authorization as string);
		expect(llm.requests.at(-1)?.body.generationConfig.thinkingConfig).toEqual({
			includeThoughts: true,
			thinkingBudget: 128,
		});
		expect(tokens.requests.length).toBe(before + 1);
		expect(tokens.requests[before]?.rejected).toBeUndefined();
	});

	test("gcloud user credentials: refresh grant, quota project header, project from the file", async () => {
		const file = credentialsFile(authorizedUserJson({ token_uri: tokens.tokenUri }));
		llm.push({ kind: "reply", text: "ok" });
		const { message } = await run({ env: adcEnv(file, { GOOGLE_CLOUD_PROJECT: "" }), project: undefined });
		expect(message.stopReason).toBe("stop");
		expect(tokens.requests.at(-1)?.grantType).toBe("refresh_token");
		expect(llm.requests.at(-1)?.headers["x-goog-user-project"]).toBe("quota-project");
	});

	test("an API key wins over the credentials", async () => {
		const file = credentialsFile(serviceAccountJson(keys.privateKeyPem, tokens.tokenUri));
		const before = tokens.requests.length;
		llm.push({ kind: "reply", text: "ok" });
		await run({ apiKey: "AQ.vertex-key", env: adcEnv(file) });
		expect(llm.requests.at(-1)?.headers["x-goog-api-key"]).toBe("AQ.vertex-key");
		expect(llm.requests.at(-1)?.headers.authorization).toBeUndefined();
		expect(tokens.requests.length).toBe(before);
	});
});

describe("failures are one line, classified, and carry no secret", () => {
	const secrets = () => [
		keys.privateKeyPem.split("\n")[1] as string,
		"d-FL95Q19q7MQmFpd7hHD0Ty",
		"1//refresh-token-secret-value",
		"ya29.",
	];

	function expectClean(events: string, message: AssistantMessage) {
		for (const secret of secrets()) expect(events).not.toContain(secret);
		expect(message.errorMessage?.includes("\n")).toBe(false);
		expect(isContextOverflow(message, 1048576)).toBe(false);
	}

	test("a malformed credentials file names the file and the field; no request is made", async () => {
		const file = credentialsFile(JSON.stringify({ type: "service_account", private_key: keys.privateKeyPem }));
		const requests = llm.requests.length;
		const { events, message } = await run({ env: adcEnv(file) });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`Google credentials file ${file}: field "client_email" is missing`);
		expect(llm.requests.length).toBe(requests);
		expectClean(events, message);
	});

	test("a revoked refresh token: the endpoint's reason and what to do; not retryable", async () => {
		tokens.fail({ status: 400, error: "invalid_grant", description: "Token has been expired or revoked." });
		const file = credentialsFile(authorizedUserJson({ token_uri: tokens.tokenUri }));
		const { events, message } = await run({ env: adcEnv(file) });
		expect(message.errorMessage).toBe(
			`Google token API error 400 from ${tokens.tokenUri} for the user credentials in ${file}: invalid_grant: Token has been expired or revoked.; run \`gcloud auth application-default login\` again`,
		);
		expect(isRetryableAssistantError(message)).toBe(false);
		expectClean(events, message);
	});

	test("a token endpoint that is down is retryable", async () => {
		tokens.fail({ status: 503, error: "temporarily_unavailable" });
		const file = credentialsFile(serviceAccountJson(keys.privateKeyPem, tokens.tokenUri));
		const { events, message } = await run({ env: adcEnv(file) });
		expect(message.errorMessage).toStartWith(`Google token API error 503 from ${tokens.tokenUri}`);
		expect(isRetryableAssistantError(message)).toBe(true);
		expectClean(events, message);
	});

	test("the missing project and location are named; the credentials file's project counts", async () => {
		const file = credentialsFile(serviceAccountJson(keys.privateKeyPem, tokens.tokenUri, { project_id: undefined }));
		const noProject = await run({ env: adcEnv(file, { GOOGLE_CLOUD_PROJECT: "", GCLOUD_PROJECT: "" }) });
		expect(noProject.message.errorMessage).toBe(
			"Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
		);
		const fromFile = credentialsFile(serviceAccountJson(keys.privateKeyPem, tokens.tokenUri));
		const noLocation = await run({ env: adcEnv(fromFile, { GOOGLE_CLOUD_PROJECT: "", GOOGLE_CLOUD_LOCATION: "" }) });
		expect(noLocation.message.errorMessage).toBe(
			"Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.",
		);
	});

	test("an abort while the token is fetched ends the message as aborted", async () => {
		tokens.delayMs = 3000;
		const file = credentialsFile(authorizedUserJson({ token_uri: tokens.tokenUri }));
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 50);
		const { message } = await run({ env: adcEnv(file), signal: controller.signal });
		expect(message.stopReason).toBe("aborted");
		expect(Date.now() - started).toBeLessThan(2000);
	});

	test("an HTTP error from Vertex keeps pi's classification: 429 retryable, overflow recognised", async () => {
		llm.push(
			{ kind: "http-error", status: 429, message: "Resource exhausted. Please try again later." },
			{
				kind: "http-error",
				status: 400,
				message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
			},
		);
		const limited = await run({ apiKey: "k" });
		expect(isRetryableAssistantError(limited.message)).toBe(true);
		const overflow = await run({ apiKey: "k" });
		expect(isContextOverflow(overflow.message, 1048576)).toBe(true);
	});
});
