/**
 * Account logins through the binary against the loopback authorization server (`PI_OAUTH_TEST_ORIGIN`) and the
 * mock LLM: `pi login anthropic` by the browser callback and by a pasted redirect URL, a request that carries the
 * stored token (with what pi sends for subscription tokens), an expired token refreshed before the request, a
 * revoked refresh token, a cancelled login, and four `pi -p` started at once on one expired token (exactly one
 * refresh reaches the server, all four answer). Uses the fixed callback port 53692, so the tests run one at a time.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runPiAsync } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { startOAuthServer } from "../support/oauth-server.ts";

const llm = startMockLlm();
const oauth = startOAuthServer({ refreshDelayMs: 300 });
afterAll(() => {
	llm.stop();
	oauth.stop();
});

const MODEL = ["--provider", "anthropic", "--model", "claude-haiku-4-5"];

function home(auth?: Record<string, unknown>): { home: string; authPath: string } {
	const dir = makeTempDir("pi-oauth-e2e-");
	const agent = join(dir, ".pi", "agent");
	mkdirSync(agent, { recursive: true });
	writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: llm.url } } }));
	const authPath = join(agent, "auth.json");
	if (auth) writeFileSync(authPath, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600 });
	return { home: dir, authPath };
}

const env = () => ({ PI_OAUTH_TEST_ORIGIN: oauth.url, ANTHROPIC_API_KEY: "" });

/** `pi login …` as a child whose output can be waited on line by line. */
function spawnLogin(args: string[], homeDir: string) {
	const child = Bun.spawn([ensureBinary(), ...args], {
		cwd: homeDir,
		env: { ...process.env, HOME: homeDir, ...env() },
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	let stdout = "";
	const decoder = new TextDecoder();
	const reading = (async () => {
		for await (const chunk of child.stdout) stdout += decoder.decode(chunk, { stream: true });
	})();
	const stderr = new Response(child.stderr).text();
	return {
		child,
		output: () => stdout,
		async authorizeUrl(): Promise<string> {
			const deadline = Date.now() + 15_000;
			while (Date.now() < deadline) {
				const match = /^\s+(http\S+\/oauth\/authorize\S+)$/m.exec(stdout);
				if (match?.[1]) return match[1];
				await Bun.sleep(20);
			}
			throw new Error(`no authorize URL printed:\n${stdout}`);
		},
		async finish() {
			const code = await child.exited;
			await reading;
			return { code, stdout, stderr: await stderr };
		},
	};
}

function expiredCredential(refresh: string) {
	return { type: "oauth", refresh, access: "sk-ant-oat01-expired", expires: Date.now() - 60_000 };
}

describe("pi login anthropic", () => {
	test("the browser callback stores the tokens; the next request carries them as pi sends subscription tokens", async () => {
		const { home: dir, authPath } = home();
		const login = spawnLogin(["login", "anthropic"], dir);
		const url = await login.authorizeUrl();
		const page = await fetch(oauth.approve(url).replace("//localhost:", "//127.0.0.1:"));
		expect(page.status).toBe(200);
		expect(await page.text()).toContain("Signed in to Anthropic");
		login.child.stdin.end();
		const done = await login.finish();
		expect(done.stderr).toBe("");
		expect(done.code).toBe(0);
		expect(done.stdout).toContain(`Logged in to Anthropic. Credentials saved to ${authPath}`);
		const stored = JSON.parse(readFileSync(authPath, "utf8")).anthropic;
		expect(Object.keys(stored).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(statSync(authPath).mode & 0o777).toBe(0o600);

		llm.push({ kind: "reply", text: "hello from the subscription" });
		const run = await runPiAsync([...MODEL, "-p", "hi"], { home: dir, env: env() });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("hello from the subscription\n");
		const request = llm.requests.at(-1);
		expect(request?.headers.authorization).toBe(`Bearer ${stored.access}`);
		expect(request?.headers["x-api-key"]).toBeUndefined();
		expect(request?.headers["anthropic-beta"]).toContain("oauth-2025-04-20");
		expect(request?.headers["user-agent"]).toMatch(/^claude-cli\//);
		expect(request?.body.system[0].text).toBe("You are Claude Code, Anthropic's official CLI for Claude.");
		// The token never shows up in what pi prints.
		expect(run.stdout + run.stderr + done.stdout).not.toContain(stored.access);
	});

	test("a redirect URL pasted on standard input finishes the login", async () => {
		const { home: dir, authPath } = home();
		const login = spawnLogin(["login", "anthropic"], dir);
		const url = await login.authorizeUrl();
		login.child.stdin.write(`${oauth.approve(url)}\n`);
		login.child.stdin.end();
		const done = await login.finish();
		expect(done.code).toBe(0);
		expect(JSON.parse(readFileSync(authPath, "utf8")).anthropic.type).toBe("oauth");
	});

	test("a cancelled login (Ctrl+C) leaves auth.json exactly as it was", async () => {
		const { home: dir, authPath } = home({ openai: { type: "api_key", key: "sk-keep" } });
		const before = readFileSync(authPath, "utf8");
		const mtime = statSync(authPath).mtimeMs;
		const login = spawnLogin(["login", "anthropic"], dir);
		await login.authorizeUrl();
		login.child.kill("SIGINT");
		const done = await login.finish();
		expect(done.code).toBe(1);
		expect(done.stderr).toBe(`Login to Anthropic cancelled; ${authPath} was not changed\n`);
		expect(readFileSync(authPath, "utf8")).toBe(before);
		expect(statSync(authPath).mtimeMs).toBe(mtime);
	});

	test("pi logout anthropic removes the stored login", async () => {
		const { home: dir, authPath } = home({
			anthropic: { type: "oauth", refresh: "r", access: "a", expires: Date.now() + 3_600_000 },
			openai: { type: "api_key", key: "sk-keep" },
		});
		const run = await runPiAsync(["logout", "anthropic"], { home: dir });
		expect(run.stdout).toBe("Logged out of anthropic\n");
		expect(run.exitCode).toBe(0);
		expect(JSON.parse(readFileSync(authPath, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk-keep" } });
	});
});

describe("stored subscription tokens", () => {
	test("an expired token is refreshed before the request, and the new one is stored and sent", async () => {
		const { home: dir, authPath } = home({ anthropic: expiredCredential(oauth.issueRefreshToken()) });
		const refreshes = oauth.refreshCount();
		llm.push({ kind: "reply", text: "fresh" });
		const run = await runPiAsync([...MODEL, "-p", "hi"], { home: dir, env: env() });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("fresh\n");
		expect(oauth.refreshCount()).toBe(refreshes + 1);
		const stored = JSON.parse(readFileSync(authPath, "utf8")).anthropic;
		expect(stored.expires).toBeGreaterThan(Date.now());
		expect(llm.requests.at(-1)?.headers.authorization).toBe(`Bearer ${stored.access}`);
		expect(statSync(authPath).mode & 0o777).toBe(0o600);
	});

	test("a revoked refresh token: one line naming the provider and /login, auth.json unchanged", async () => {
		const refresh = oauth.issueRefreshToken();
		oauth.revoke(refresh);
		const { home: dir, authPath } = home({ anthropic: expiredCredential(refresh) });
		const before = readFileSync(authPath, "utf8");
		const requests = llm.requests.length;
		const run = await runPiAsync([...MODEL, "-p", "hi"], { home: dir, env: env() });
		expect(run.exitCode).not.toBe(0);
		expect(run.stdout + run.stderr).toContain(
			'The saved login for "anthropic" is no longer valid (the refresh token was refused: invalid_grant); log in again with /login anthropic (or `pi login anthropic`)',
		);
		expect(run.stdout + run.stderr).not.toContain(refresh);
		expect(readFileSync(authPath, "utf8")).toBe(before);
		expect(llm.requests.length).toBe(requests);
	});

	test("four pi -p started at once on one expired token: one refresh request, four answers", async () => {
		const { home: dir, authPath } = home({ anthropic: expiredCredential(oauth.issueRefreshToken()) });
		const refreshes = oauth.refreshCount();
		for (let i = 0; i < 4; i++) llm.push({ kind: "reply", text: "ok" });
		const runs = await Promise.all(
			[0, 1, 2, 3].map(() => runPiAsync([...MODEL, "-p", "hi"], { home: dir, env: env() })),
		);
		for (const run of runs) {
			expect(run.stderr).toBe("");
			expect(run.stdout).toBe("ok\n");
			expect(run.exitCode).toBe(0);
		}
		expect(oauth.refreshCount()).toBe(refreshes + 1);
		const stored = JSON.parse(readFileSync(authPath, "utf8")).anthropic;
		const sent = llm.requests.slice(-4).map((r) => r.headers.authorization);
		expect(sent).toEqual([0, 1, 2, 3].map(() => `Bearer ${stored.access}`));
	});
});
