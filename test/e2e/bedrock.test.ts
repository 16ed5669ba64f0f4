/**
 * Amazon Bedrock through the binary: a models.json provider on the `bedrock-converse-stream` API pointed at the
 * mock LLM (which verifies the SigV4 signature), authorised by AWS keys in the environment, by a profile in
 * `~/.aws`, or by a bearer token — and neither stdout, stderr nor the session file ever holds a secret, also when
 * the request is refused.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { MOCK_AWS_KEYS, startMockLlm } from "../support/mock-llm/index.ts";

const KEY = "AKIAMOCKTESTKEY00001";
const SECRET = MOCK_AWS_KEYS[KEY] as string;
const SESSION = "IQoJb3JpZ2luX2VjE2E-SESSION-TOKEN";
const BEARER = "ABSKQmVkcm9ja0FQSUtleS1E2E-BEARER";
const MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

const server = startMockLlm();
afterAll(() => server.stop());

function home(extra: Record<string, string> = {}): string {
	const dir = makeTempDir("pi-bedrock-e2e-");
	writeTree(dir, {
		".pi/agent/models.json": JSON.stringify({
			providers: {
				"amazon-bedrock": {
					baseUrl: server.url,
					api: "bedrock-converse-stream",
					models: [{ id: MODEL, name: "Claude Sonnet 4.5", reasoning: true, input: ["text", "image"] }],
				},
			},
		}),
		...extra,
	});
	return dir;
}

function everything(dir: string, out: { stdout: string; stderr: string }): string {
	const sessions = join(dir, ".pi", "agent", "sessions");
	let files = "";
	const walk = (d: string) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			const path = join(d, entry.name);
			if (entry.isDirectory()) walk(path);
			else files += readFileSync(path, "utf8");
		}
	};
	try {
		walk(sessions);
	} catch {
		// no session written
	}
	return `${out.stdout}\n${out.stderr}\n${files}`;
}

const ask = (dir: string, env: Record<string, string>) =>
	runPiAsync(["-p", "say hello", "--model", `amazon-bedrock/${MODEL}`], {
		home: dir,
		env: { HTTP_PROXY: "", HTTPS_PROXY: "", NO_PROXY: "127.0.0.1,localhost", ...env },
	});

describe("Bedrock through the binary", () => {
	test("AWS keys in the environment: a signed request, the answer printed, no secret anywhere", async () => {
		server.push({ kind: "reply", text: "hello from bedrock" });
		const dir = home();
		const out = await ask(dir, { AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SESSION });
		expect(out.stdout).toContain("hello from bedrock");
		expect(out.exitCode).toBe(0);
		const request = server.requests.at(-1);
		expect(request?.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`);
		expect(request?.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${KEY}/`);
		const all = everything(dir, out);
		expect(all).toContain('"hello from bedrock"'); // the session file was read too
		for (const secret of [SECRET, SESSION]) expect(all).not.toContain(secret);
	}, 60_000);

	test("a profile from ~/.aws/credentials, and a refused signature reported without the secret", async () => {
		server.push({ kind: "reply", text: "hello from a profile" });
		const dir = home({
			".aws/credentials": `[dev]\naws_access_key_id = ${KEY}\naws_secret_access_key = ${SECRET}\n[bad]\naws_access_key_id = ${KEY}\naws_secret_access_key = ${SECRET}-WRONG\n`,
		});
		const good = await ask(dir, { AWS_PROFILE: "dev" });
		expect(good.stdout).toContain("hello from a profile");
		const bad = await ask(dir, { AWS_PROFILE: "bad" });
		expect(`${bad.stdout}${bad.stderr}`).toContain("InvalidSignatureException");
		for (const out of [good, bad]) expect(everything(dir, out)).not.toContain(SECRET);
	}, 60_000);

	test("a bearer token from AWS_BEARER_TOKEN_BEDROCK", async () => {
		server.push({ kind: "reply", text: "hello bearer" });
		const dir = home();
		const out = await ask(dir, { AWS_BEARER_TOKEN_BEDROCK: BEARER });
		expect(out.stdout).toContain("hello bearer");
		expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${BEARER}`);
		expect(everything(dir, out)).not.toContain(BEARER);
	}, 60_000);
});
