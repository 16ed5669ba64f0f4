/**
 * `pi login radius` through the binary against a loopback Radius gateway (`PI_OAUTH_TEST_ORIGIN`): the browser
 * method (the callback on 127.0.0.1:1456) stores pi's credential and the next `pi -p` sends the access token as its
 * bearer key; the device-code method prints the code and finishes once approved. Uses the fixed callback port 1456
 * (no other test file does).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runPiAsync } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { startOAuthServer } from "../support/oauth-server.ts";

const llm = startMockLlm();
const gateway = startOAuthServer({ accessToken: (n) => `radius-e2e-at-${n}-secret` });
gateway.route("GET", "/v1/oauth", () =>
	Response.json({ authorizationEndpoint: "https://radius.pi.dev/oauth/authorize" }),
);
afterAll(() => {
	llm.stop();
	gateway.stop();
});

const env = () => ({ PI_OAUTH_TEST_ORIGIN: gateway.url, RADIUS_API_KEY: "" });

function home(): { home: string; authPath: string } {
	const dir = makeTempDir("pi-radius-e2e-");
	const agent = join(dir, ".pi", "agent");
	mkdirSync(agent, { recursive: true });
	writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { radius: { baseUrl: `${llm.url}/pi` } } }));
	return { home: dir, authPath: join(agent, "auth.json") };
}

function spawnLogin(homeDir: string) {
	const child = Bun.spawn([ensureBinary(), "login", "radius"], {
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
		async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
			const deadline = Date.now() + 15_000;
			while (Date.now() < deadline) {
				const match = pattern.exec(stdout);
				if (match) return match;
				await Bun.sleep(20);
			}
			throw new Error(`${pattern} not printed:\n${stdout}`);
		},
		async finish() {
			const code = await child.exited;
			await reading;
			return { code, stdout, stderr: await stderr };
		},
	};
}

describe("pi login radius", () => {
	test("browser: the callback on port 1456 stores the tokens; pi -p sends the access token", async () => {
		const { home: dir, authPath } = home();
		const login = spawnLogin(dir);
		await login.waitFor(/Sign in to Radius:/);
		login.child.stdin.write("1\n");
		const url = (await login.waitFor(/^\s+(http\S+\/oauth\/authorize\S+)$/m))[1] ?? "";
		expect(new URL(url).searchParams.get("redirect_uri")).toBe("http://127.0.0.1:1456/oauth/callback");
		const page = await fetch(gateway.approve(url));
		expect(page.status).toBe(200);
		login.child.stdin.end();
		const done = await login.finish();
		expect(done.stderr).toBe("");
		expect(done.code).toBe(0);
		expect(done.stdout).toContain(`Logged in to Radius. Credentials saved to ${authPath}`);
		const stored = JSON.parse(readFileSync(authPath, "utf8")).radius;
		expect(Object.keys(stored).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(stored.access).toMatch(/^radius-e2e-at-\d+-secret$/);
		expect(statSync(authPath).mode & 0o777).toBe(0o600);

		llm.push({ kind: "reply", text: "hello from radius" });
		const run = await runPiAsync(["--provider", "radius", "--model", "balanced", "-p", "hi"], {
			home: dir,
			env: env(),
		});
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("hello from radius\n");
		expect(llm.requests.at(-1)?.headers.authorization).toBe(`Bearer ${stored.access}`);
		expect(run.stdout + run.stderr + done.stdout).not.toContain(stored.access);
	}, 30_000);

	test("device code: the code is printed and the approved tokens are stored", async () => {
		let polls = 0;
		gateway.route("POST", "/v1/oauth/device", () =>
			Response.json({
				device_code: "dc-e2e",
				user_code: "RAD-E2E1",
				verification_uri: "https://radius.pi.dev/device",
				expires_in: 60,
				interval: 1,
			}),
		);
		gateway.route("POST", "/v1/oauth/token", (_request, fields) => {
			if (fields.device_code !== "dc-e2e") return Response.json({ error: "invalid_grant" }, { status: 400 });
			if (polls++ === 0) return Response.json({ error: "authorization_pending" }, { status: 400 });
			return Response.json({ access_token: "radius-device-secret", refresh_token: "rt-device", expires_in: 600 });
		});
		const { home: dir, authPath } = home();
		const login = spawnLogin(dir);
		await login.waitFor(/Sign in to Radius:/);
		login.child.stdin.write("2\n");
		await login.waitFor(/Open https:\/\/radius\.pi\.dev\/device and enter the code: RAD-E2E1/);
		login.child.stdin.end();
		const done = await login.finish();
		expect(done.code).toBe(0);
		expect(polls).toBe(2);
		expect(JSON.parse(readFileSync(authPath, "utf8")).radius).toMatchObject({
			type: "oauth",
			access: "radius-device-secret",
			refresh: "rt-device",
		});
		expect(done.stdout + done.stderr).not.toContain("radius-device-secret");
	}, 30_000);
});
