/**
 * A stored login's `env` reaches the provider's stream through the binary, as in pi: `/login amazon-bedrock`'s
 * AWS-profile choice stores `{"type":"api_key","env":{"AWS_PROFILE":…}}`, and `pi -p` then signs with that
 * profile's keys from ~/.aws/credentials rather than the default profile's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { MOCK_AWS_KEYS, startMockLlm } from "../support/mock-llm/index.ts";

const DEFAULT_KEY = "AKIAMOCKTESTKEY00001";
const WORK_KEY = "AKIAMOCKTESTKEY00002";
const MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

const server = startMockLlm();
afterAll(() => server.stop());

describe("stored env through the binary", () => {
	test("Bedrock signs with the stored AWS_PROFILE's keys", async () => {
		const home = makeTempDir("pi-stored-env-");
		writeTree(home, {
			".pi/agent/models.json": JSON.stringify({
				providers: {
					"amazon-bedrock": {
						baseUrl: server.url,
						api: "bedrock-converse-stream",
						models: [{ id: MODEL, name: "Claude Sonnet 4.5", reasoning: true, input: ["text"] }],
					},
				},
			}),
			".pi/agent/auth.json": JSON.stringify({ "amazon-bedrock": { type: "api_key", env: { AWS_PROFILE: "work" } } }),
			".aws/credentials": [
				"[default]",
				`aws_access_key_id = ${DEFAULT_KEY}`,
				`aws_secret_access_key = ${MOCK_AWS_KEYS[DEFAULT_KEY]}`,
				"[work]",
				`aws_access_key_id = ${WORK_KEY}`,
				`aws_secret_access_key = ${MOCK_AWS_KEYS[WORK_KEY]}`,
				"",
			].join("\n"),
			".aws/config": "[default]\nregion = us-east-1\n[profile work]\nregion = us-west-2\n",
		});
		server.push({ kind: "reply", text: "hello from the work profile" });
		const out = await runPiAsync(["-p", "say hello", "--model", `amazon-bedrock/${MODEL}`], {
			home,
			env: {
				HTTP_PROXY: "",
				HTTPS_PROXY: "",
				NO_PROXY: "127.0.0.1,localhost",
				AWS_PROFILE: "",
				AWS_ACCESS_KEY_ID: "",
				AWS_SECRET_ACCESS_KEY: "",
				AWS_BEARER_TOKEN_BEDROCK: "",
			},
		});
		expect(out.exitCode, out.stderr).toBe(0);
		expect(out.stdout).toContain("hello from the work profile");
		expect(server.requests.at(-1)?.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${WORK_KEY}/`);
		expect(out.stdout + out.stderr).not.toContain(MOCK_AWS_KEYS[WORK_KEY] as string);
	}, 60_000);
});
