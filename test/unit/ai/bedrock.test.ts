/**
 * `bedrock-converse-stream` on its own: where requests go (endpoint and signing region rules), each way of
 * authorising them against the mock LLM (which verifies SigV4 signatures), the lazily loaded registry entry, and
 * that no secret of any credential source reaches an event, a message or an error.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { clearAwsCredentialCache } from "../../../src/ai/aws/credential-chain.ts";
import { getApiProvider, isRetryableAssistantError } from "../../../src/ai/index.ts";
import { streamBedrock } from "../../../src/ai/providers/bedrock.ts";
import { resolveBedrockAuth } from "../../../src/ai/providers/bedrock-auth.ts";
import type { Model } from "../../../src/ai/types.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";
import { MOCK_AWS_KEYS, type MockLlmServer, startMockLlm } from "../../support/mock-llm/index.ts";

const KEY = "AKIAMOCKTESTKEY00001";
const SECRET = MOCK_AWS_KEYS[KEY] as string;
const KEY2 = "AKIAMOCKTESTKEY00002";
const SECRET2 = MOCK_AWS_KEYS[KEY2] as string;
const BEARER = "ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlBEARER";
const SESSION = "IQoJb3JpZ2luX2VjEMOCKSESSIONTOKEN";

const model = (over: Partial<Model> = {}): Model =>
	({
		id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
		name: "Claude Sonnet 4.5",
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200000,
		maxTokens: 64000,
		...over,
	}) as Model;
const context = { systemPrompt: "be brief", messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };

let server: MockLlmServer;
const savedProfile = process.env.AWS_PROFILE;
afterEach(() => {
	clearAwsCredentialCache();
	if (savedProfile === undefined) delete process.env.AWS_PROFILE;
	else process.env.AWS_PROFILE = savedProfile;
});
afterAll(() => server?.stop());

describe("Bedrock endpoint and region", () => {
	const empty = { HOME: "/nonexistent", AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET };
	test("a standard endpoint is used while no region is configured; a region replaces it", async () => {
		delete process.env.AWS_PROFILE;
		const standard = await resolveBedrockAuth(
			model({ baseUrl: "https://bedrock-runtime.eu-central-1.amazonaws.com" }),
			{
				env: empty,
			},
		);
		expect([standard.endpoint, standard.region]).toEqual([
			"https://bedrock-runtime.eu-central-1.amazonaws.com",
			"eu-central-1",
		]);
		const regional = await resolveBedrockAuth(model(), { env: { ...empty, AWS_REGION: "ap-south-1" } });
		expect([regional.endpoint, regional.region]).toEqual([
			"https://bedrock-runtime.ap-south-1.amazonaws.com",
			"ap-south-1",
		]);
		const option = await resolveBedrockAuth(model(), {
			env: { ...empty, AWS_DEFAULT_REGION: "eu-west-1" },
			region: "cn-north-1",
		});
		expect(option.endpoint).toBe("https://bedrock-runtime.cn-north-1.amazonaws.com.cn");
	});

	test("a custom endpoint (proxy, VPC) is always used; an inference-profile ARN decides the region", async () => {
		const custom = await resolveBedrockAuth(model({ baseUrl: "https://vpce-1.bedrock.example/" }), {
			env: { ...empty, AWS_REGION: "us-west-2" },
		});
		expect([custom.endpoint, custom.region]).toEqual(["https://vpce-1.bedrock.example/", "us-west-2"]);
		const arn = await resolveBedrockAuth(
			model({ id: "arn:aws:bedrock:eu-north-1:1:application-inference-profile/x" }),
			{
				env: { ...empty, AWS_REGION: "us-west-2" },
			},
		);
		// The endpoint follows the signing region (the SDK derives it from the region).
		expect([arn.endpoint, arn.region]).toEqual(["https://bedrock-runtime.eu-north-1.amazonaws.com", "eu-north-1"]);
	});

	test("with AWS_PROFILE set the profile's region is used", async () => {
		const HOME = makeTempDir("pi-bedrock-");
		writeTree(HOME, {
			".aws/config": `[profile dev]\nregion = sa-east-1\naws_access_key_id = ${KEY}\naws_secret_access_key = ${SECRET}\n`,
		});
		process.env.AWS_PROFILE = "dev";
		const auth = await resolveBedrockAuth(model(), { env: { HOME } });
		expect([auth.endpoint, auth.region]).toEqual(["https://bedrock-runtime.sa-east-1.amazonaws.com", "sa-east-1"]);
		expect(auth.credentials?.accessKeyId).toBe(KEY);
	});
});

interface Outcome {
	events: string;
	result: any;
	auth: string | undefined;
}

async function run(env: Record<string, string>, options: Record<string, unknown> = {}): Promise<Outcome> {
	server ??= startMockLlm();
	// A request the mock refuses (bad signature) leaves its step for the next one.
	if (server.pending() === 0)
		server.push({ kind: "reply", text: "hello from bedrock", usage: { input: 7, output: 3 } });
	const before = server.requests.length;
	const s = streamBedrock(model({ baseUrl: server.url }), context, {
		env: { HOME: "/nonexistent", ...env },
		...options,
	});
	const events: unknown[] = [];
	for await (const e of s) events.push(e);
	const result = await s.result();
	return { events: JSON.stringify(events), result, auth: server.requests[before]?.headers.authorization };
}

describe("Bedrock authorisation against the mock (signatures verified)", () => {
	test("environment keys with a session token: SigV4 accepted, text and usage arrive", async () => {
		const out = await run({ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SESSION });
		expect(out.result.stopReason).toBe("stop");
		expect(out.result.content).toEqual([{ type: "text", text: "hello from bedrock" }]);
		expect(out.result.usage.totalTokens).toBe(10);
		expect(out.auth).toContain(`Credential=${KEY}/`);
		expect(server.requests.at(-1)?.headers["x-amz-security-token"]).toBe(SESSION);
	});

	test("a wrong secret is refused by the signature check, and the error names no secret", async () => {
		const out = await run({ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: "not-the-secret-XYZ" });
		expect(out.result.stopReason).toBe("error");
		expect(out.result.errorMessage).toBe(
			"InvalidSignatureException: The request signature we calculated does not match the signature you provided.",
		);
		expect(server.pending()).toBe(1);
	});

	test("bearer token from AWS_BEARER_TOKEN_BEDROCK, the bearerToken option, or the API key", async () => {
		expect((await run({ AWS_BEARER_TOKEN_BEDROCK: BEARER })).auth).toBe(`Bearer ${BEARER}`);
		expect((await run({}, { bearerToken: "opt-token" })).auth).toBe("Bearer opt-token");
		expect((await run({}, { apiKey: "key-token" })).auth).toBe("Bearer key-token");
		// pi's marker for ambient credentials is not a token.
		const ambient = await run({ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET }, { apiKey: "<authenticated>" });
		expect(ambient.auth).toStartWith("AWS4-HMAC-SHA256");
	});

	test("AWS_BEDROCK_SKIP_AUTH=1 signs with dummy keys, even with a bearer token set", async () => {
		const out = await run({ AWS_BEDROCK_SKIP_AUTH: "1", AWS_BEARER_TOKEN_BEDROCK: BEARER });
		expect(out.result.stopReason).toBe("stop");
		expect(out.auth).toContain("Credential=dummy-access-key/");
	});

	test("profiles: static keys, credential_process and SSO sign requests the mock accepts", async () => {
		const HOME = makeTempDir("pi-bedrock-");
		const ssoKey = createHash("sha1").update("corp").digest("hex");
		const sso = Bun.serve({
			hostname: "127.0.0.1",
			port: 0,
			fetch: () =>
				Response.json({
					roleCredentials: {
						accessKeyId: KEY2,
						secretAccessKey: SECRET2,
						sessionToken: SESSION,
						expiration: Date.now() + 3600_000,
					},
				}),
		});
		try {
			writeTree(HOME, {
				"creds.sh": `echo '{"Version":1,"AccessKeyId":"${KEY2}","SecretAccessKey":"${SECRET2}","SessionToken":"${SESSION}"}'\n`,
				".aws/credentials": `[static]\naws_access_key_id = ${KEY}\naws_secret_access_key = ${SECRET}\n`,
				".aws/config": `[profile proc]\ncredential_process = sh ${HOME}/creds.sh\n[profile sso]\nsso_session = corp\nsso_account_id = 1\nsso_role_name = Dev\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n`,
				[`.aws/sso/cache/${ssoKey}.json`]: JSON.stringify({
					accessToken: "sso-tok",
					expiresAt: "2099-01-01T00:00:00Z",
				}),
			});
			for (const [profile, key] of [
				["static", KEY],
				["proc", KEY2],
				["sso", KEY2],
			]) {
				const out = await run({ HOME, AWS_ENDPOINT_URL_SSO: `http://127.0.0.1:${sso.port}` }, { profile });
				expect({ profile, stop: out.result.stopReason, auth: out.auth?.split("/")[0] }).toEqual({
					profile,
					stop: "stop",
					auth: `AWS4-HMAC-SHA256 Credential=${key}`,
				});
			}
			const missing = await run({ HOME }, { profile: "nope" });
			expect(missing.result.errorMessage).toContain('AWS profile "nope" is not defined');
		} finally {
			sso.stop(true);
		}
	});

	test("no secret of any source appears in events, messages or errors", async () => {
		const outcomes = [
			await run({ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SESSION }),
			await run({ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: `${SECRET}-wrong` }),
			await run({ AWS_BEARER_TOKEN_BEDROCK: BEARER }),
		];
		// An endpoint that echoes the request (a misbehaving proxy) still cannot leak the credentials.
		const echo = Bun.serve({
			hostname: "127.0.0.1",
			port: 0,
			fetch: async (req) => new Response(`denied: ${JSON.stringify(Object.fromEntries(req.headers))}`, { status: 403 }),
		});
		try {
			for (const env of [
				{ AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SESSION },
				{ AWS_BEARER_TOKEN_BEDROCK: BEARER },
			]) {
				const s = streamBedrock(model({ baseUrl: `http://127.0.0.1:${echo.port}` }), context, {
					env: { HOME: "/nonexistent", ...env },
				});
				const events: unknown[] = [];
				for await (const e of s) events.push(e);
				const result = await s.result();
				expect(result.errorMessage).toStartWith("403: denied:");
				outcomes.push({ events: JSON.stringify(events), result, auth: undefined });
			}
		} finally {
			echo.stop(true);
		}
		const text = JSON.stringify(outcomes.map((o) => [o.events, o.result]));
		for (const secret of [SECRET, SESSION, BEARER]) expect(text).not.toContain(secret);
		expect(text).toContain("[redacted]");
	});
});

describe("the event stream (without pi's install: the mapping on its own)", () => {
	test("reasoning with its signature, text and tool calls, in order, with usage and cost", async () => {
		server ??= startMockLlm();
		while (server.pending() > 0) await run({ AWS_BEARER_TOKEN_BEDROCK: BEARER });
		server.push({
			kind: "reply",
			thinking: "thinking hard",
			thinkingSignature: "SIG",
			text: "let me look",
			toolCalls: [{ id: "tu1", name: "read", arguments: { path: "a.txt" } }],
			usage: { input: 100, output: 20, cacheRead: 50 },
		});
		const s = streamBedrock(model({ baseUrl: server.url }), context, {
			env: { HOME: "/nonexistent", AWS_BEARER_TOKEN_BEDROCK: BEARER },
		});
		const types: string[] = [];
		for await (const e of s) if (!e.type.endsWith("_delta")) types.push(e.type);
		const result = await s.result();
		expect(types).toEqual([
			"start",
			"thinking_start",
			"thinking_end",
			"text_start",
			"text_end",
			"toolcall_start",
			"toolcall_end",
			"done",
		]);
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "thinking hard", thinkingSignature: "SIG" },
			{ type: "text", text: "let me look" },
			{ type: "toolCall", id: "tu1", name: "read", arguments: { path: "a.txt" } },
		]);
		expect(result.usage).toMatchObject({ input: 100, output: 20, cacheRead: 50, totalTokens: 170 });
		expect(result.usage.cost.total).toBeCloseTo((100 * 3 + 20 * 15 + 50 * 0.3) / 1e6, 12);
	});
});

describe("transport failures", () => {
	test("a refused connection is retried, then reported as a retryable connection error", async () => {
		const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
		const url = `http://127.0.0.1:${gone.port}`;
		gone.stop(true);
		const s = streamBedrock(model({ baseUrl: url }), context, {
			env: { HOME: "/nonexistent", AWS_BEARER_TOKEN_BEDROCK: BEARER },
		});
		const result = await s.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toStartWith("Bedrock connection error: ");
		expect(isRetryableAssistantError(result)).toBe(true);
		expect(result.errorMessage).not.toContain(BEARER);
	});
});

describe("registry", () => {
	test("bedrock-converse-stream is a built-in API, loaded on its first request", async () => {
		server ??= startMockLlm();
		while (server.pending() > 0) await run({ AWS_BEARER_TOKEN_BEDROCK: BEARER });
		server.push({ kind: "reply", text: "via registry" });
		const provider = getApiProvider("bedrock-converse-stream");
		expect(provider).toBeDefined();
		const s = provider?.streamSimple(model({ baseUrl: server.url }), context, {
			env: { HOME: "/nonexistent", AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET },
		});
		const result = await s?.result();
		expect(result?.content).toEqual([{ type: "text", text: "via registry" }]);
	});
});
