/**
 * The binary talks to Vertex AI with Application Default Credentials and nothing else configured: a service account
 * key named by GOOGLE_APPLICATION_CREDENTIALS, or gcloud's well-known user credentials file, plus project and
 * location from the environment (a models.json entry points the `google-vertex` provider at the mock LLM; the
 * credentials' token_uri points at a loopback token endpoint). No secret of the credentials (key, client secret,
 * refresh token, access token) appears in the output or in any file pi writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import {
	authorizedUserJson,
	makeTestKeyPair,
	serviceAccountJson,
	startTokenServer,
	type TestKeyPair,
	type TokenServer,
	wellKnownAdcFile,
} from "../support/gcp-token-server.ts";
import { type MockLlmServer, startMockLlm } from "../support/mock-llm/index.ts";

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

function homeWithVertexModel(): string {
	const home = makeTempDir("pi-vertex-home-");
	const dir = join(home, ".pi", "agent");
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "models.json"),
		JSON.stringify({
			providers: {
				"google-vertex": {
					baseUrl: llm.url,
					api: "google-vertex",
					models: [{ id: "gemini-2.5-flash", reasoning: true, input: ["text", "image"] }],
				},
			},
		}),
	);
	return home;
}

/** Every file under `dir`, as text. */
function allFiles(dir: string): { path: string; text: string }[] {
	const out: { path: string; text: string }[] = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) out.push(...allFiles(path));
		else out.push({ path, text: readFileSync(path, "utf8") });
	}
	return out;
}

const SECRETS = () => [
	keys.privateKeyPem.split("\n")[2] as string,
	"d-FL95Q19q7MQmFpd7hHD0Ty",
	"1//refresh-token-secret-value",
	"ya29.test-token",
];

function expectNoSecrets(home: string, outputs: string[], credentialsFile: string): void {
	const written = allFiles(join(home, ".pi")).filter((f) => f.path !== credentialsFile);
	for (const secret of SECRETS()) {
		for (const text of outputs) expect(text).not.toContain(secret);
		for (const file of written)
			expect({ file: file.path, leaked: file.text.includes(secret) }).toEqual({ file: file.path, leaked: false });
	}
}

const ARGS = ["--provider", "google-vertex", "--model", "gemini-2.5-flash", "-p", "hello"];

describe("Vertex AI through Application Default Credentials", () => {
	test("service account key (GOOGLE_APPLICATION_CREDENTIALS): a signed JWT buys the bearer token", async () => {
		const home = homeWithVertexModel();
		const file = join(home, "sa.json");
		writeFileSync(file, serviceAccountJson(keys.privateKeyPem, tokens.tokenUri));
		llm.push({ kind: "reply", text: "Hello from Vertex" });
		const grants = tokens.requests.length;
		const run = await runPiAsync(ARGS, {
			home,
			env: {
				GOOGLE_APPLICATION_CREDENTIALS: file,
				GOOGLE_CLOUD_PROJECT: "my-project",
				GOOGLE_CLOUD_LOCATION: "global",
			},
		});
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("Hello from Vertex\n");
		expect(run.exitCode).toBe(0);
		expect(tokens.requests.length).toBe(grants + 1);
		expect(tokens.requests.at(-1)?.rejected).toBeUndefined();
		expect(llm.requests.at(-1)?.headers.authorization).toMatch(/^Bearer ya29\.test-token-\d+$/);
		expectNoSecrets(home, [run.stdout, run.stderr], file);
	}, 60_000);

	test("gcloud's well-known user credentials file: the refresh token buys the bearer token", async () => {
		const home = homeWithVertexModel();
		const file = wellKnownAdcFile(home);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, authorizedUserJson({ token_uri: tokens.tokenUri }));
		llm.push({ kind: "reply", text: "Hi again" });
		const run = await runPiAsync(ARGS, {
			home,
			env: { GOOGLE_CLOUD_PROJECT: "my-project", GOOGLE_CLOUD_LOCATION: "us-central1" },
		});
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("Hi again\n");
		expect(tokens.requests.at(-1)?.grantType).toBe("refresh_token");
		expect(llm.requests.at(-1)?.headers["x-goog-user-project"]).toBe("quota-project");
		expectNoSecrets(home, [run.stdout, run.stderr], file);
	}, 60_000);

	test("a revoked refresh token: one line naming the file and what to do, no secret", async () => {
		const home = homeWithVertexModel();
		const file = wellKnownAdcFile(home);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, authorizedUserJson({ token_uri: tokens.tokenUri }));
		tokens.fail({ status: 400, error: "invalid_grant", description: "Token has been expired or revoked." });
		const requests = llm.requests.length;
		try {
			const run = await runPiAsync(ARGS, {
				home,
				env: { GOOGLE_CLOUD_PROJECT: "my-project", GOOGLE_CLOUD_LOCATION: "us-central1" },
			});
			expect(run.stderr).toContain(
				`Google token API error 400 from ${tokens.tokenUri} for the user credentials in ${file}: invalid_grant: Token has been expired or revoked.; run \`gcloud auth application-default login\` again`,
			);
			expect(run.exitCode).toBe(1);
			expect(llm.requests.length).toBe(requests);
			expectNoSecrets(home, [run.stdout, run.stderr], file);
		} finally {
			tokens.fail(undefined);
		}
	}, 60_000);

	test("a malformed service account file names the file and the field", async () => {
		const home = homeWithVertexModel();
		const file = join(home, "sa.json");
		writeFileSync(file, JSON.stringify({ type: "service_account", private_key: keys.privateKeyPem }));
		const run = await runPiAsync(ARGS, {
			home,
			env: { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" },
		});
		expect(run.stderr).toContain(`Google credentials file ${file}: field "client_email" is missing`);
		expect(run.exitCode).toBe(1);
		expectNoSecrets(home, [run.stdout, run.stderr], file);
	}, 60_000);
});
