/**
 * GitHub Copilot through the binary: `pi login github-copilot` against the loopback device-code stand-in
 * (`PI_OAUTH_TEST_ORIGIN`), then `pi -p` on a Copilot model. As in pi, the request goes to the base URL the Copilot
 * token's `proxy-ep` names — always https — so the stand-in issues a token whose proxy-ep is a loopback TLS front
 * (self-signed certificate, accepted through NODE_TLS_REJECT_UNAUTHORIZED=0) that hands each request to the mock
 * LLM. The request carries the Copilot token and pi's Copilot headers; only the account's models are listed; the
 * token appears in no output or session file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { startOAuthDeviceServer } from "../support/oauth-device-server.ts";

const llm = startMockLlm();
const certDir = makeTempDir("pi-copilot-tls-");
const openssl = Bun.spawnSync(
	[
		"openssl",
		...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
		...["-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem")],
	],
	{ stdout: "ignore", stderr: "pipe" },
);
const tlsReady = openssl.exitCode === 0;
if (!tlsReady) console.log(`skipping Copilot e2e: openssl could not make a test certificate: ${openssl.stderr}`);

/** The loopback https front the token's proxy-ep names: every request is passed on to the mock LLM. */
const front = tlsReady
	? Bun.serve({
			hostname: "127.0.0.1",
			port: 0,
			tls: { cert: Bun.file(join(certDir, "cert.pem")), key: Bun.file(join(certDir, "key.pem")) },
			async fetch(request) {
				const url = new URL(request.url);
				const headers = new Headers(request.headers);
				headers.delete("host");
				const body = request.method === "GET" ? undefined : await request.arrayBuffer();
				const reply = await fetch(`${llm.url}${url.pathname}${url.search}`, { method: request.method, headers, body });
				return new Response(reply.body, { status: reply.status, headers: reply.headers });
			},
		})
	: undefined;
const oauth = startOAuthDeviceServer({ device: { interval: 0 }, copilotProxyEp: `127.0.0.1:${front?.port ?? 9}` });

afterAll(() => {
	llm.stop();
	oauth.stop();
	front?.stop(true);
});

const env = () => ({
	PI_OAUTH_TEST_ORIGIN: oauth.origin,
	NODE_TLS_REJECT_UNAUTHORIZED: "0",
	COPILOT_GITHUB_TOKEN: "",
	GH_TOKEN: "",
	GITHUB_TOKEN: "",
});

function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

describe.skipIf(!tlsReady)("pi login github-copilot, then a request", () => {
	let home = "";
	beforeAll(async () => {
		home = makeTempDir("pi-copilot-e2e-");
		// Blank answer to the GitHub Enterprise question: github.com.
		const login = await runPiAsync(["login", "github-copilot"], { home, env: env(), stdin: "\n" });
		expect(login.exitCode, login.stderr).toBe(0);
	}, 30_000);

	test("auth.json holds the Copilot token and the account's models", () => {
		const stored = JSON.parse(readFileSync(join(home, ".pi", "agent", "auth.json"), "utf8"))["github-copilot"];
		expect(stored.type).toBe("oauth");
		expect(stored.access).toContain(`proxy-ep=127.0.0.1:${front?.port}`);
		expect(stored.availableModelIds).toContain("gpt-5-mini");
		expect(stored.availableModelIds).not.toContain("grok-4.5");
	});

	test("only the account's models are offered", async () => {
		const listed = await runPiAsync(["--list-models", "github-copilot"], { home, env: env() });
		expect(listed.exitCode, listed.stderr).toBe(0);
		expect(listed.stdout).toContain("gpt-5-mini");
		// In the catalogue, not among the account's models.
		expect(listed.stdout).not.toContain("claude-haiku-4.5");
	});

	test("pi -p reaches the proxy-ep base URL with the Copilot token and pi's Copilot headers", async () => {
		llm.push({ kind: "reply", text: "hello from copilot" });
		const before = llm.requests.length;
		const run = await runPiAsync(["-p", "--provider", "github-copilot", "--model", "gpt-5-mini", "say hi"], {
			home,
			env: env(),
		});
		expect(run.exitCode, run.stderr).toBe(0);
		expect(run.stdout).toContain("hello from copilot");
		const requests = llm.requests.slice(before);
		expect(requests).toHaveLength(1);
		const request = requests[0];
		const token = JSON.parse(readFileSync(join(home, ".pi", "agent", "auth.json"), "utf8"))["github-copilot"].access;
		expect(request?.path).toBe("/responses");
		expect(request?.headers.authorization).toBe(`Bearer ${token}`);
		expect(request?.headers).toMatchObject({
			"copilot-integration-id": "vscode-chat",
			"editor-version": "vscode/1.107.0",
			"editor-plugin-version": "copilot-chat/0.35.0",
			"user-agent": "GitHubCopilotChat/0.35.0",
			"x-initiator": "user",
			"openai-intent": "conversation-edits",
		});
		expect(request?.body.model).toBe("gpt-5-mini");
		// The token is in no output and no session file.
		expect(run.stdout + run.stderr).not.toContain(token);
		for (const file of filesUnder(join(home, ".pi", "agent", "sessions"))) {
			expect(readFileSync(file, "utf8")).not.toContain(token);
		}
	}, 30_000);
});
