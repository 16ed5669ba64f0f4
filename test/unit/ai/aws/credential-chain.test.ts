/**
 * Every AWS credential source of the Bedrock provider, each against files in a temp HOME and loopback stand-ins
 * for the AWS services (SSO portal, STS, the ECS endpoint): the environment, `~/.aws/credentials` and
 * `~/.aws/config` profiles, `source_profile` role chains, `credential_process`, the SSO token cache, web identity
 * and the container endpoint. Malformed files give one line naming the file and the field, never a secret.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { clearAwsCredentialCache, resolveAwsCredentials } from "../../../../src/ai/aws/credential-chain.ts";
import { parseIni } from "../../../../src/ai/aws/profiles.ts";
import { makeTempDir, writeTree } from "../../../helpers/tmp.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzSECRET1";
const SECRET2 = "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbSECRET2";

interface Seen {
	path: string;
	headers: Record<string, string>;
	body: string;
}
const seen: Seen[] = [];
const server = Bun.serve({
	hostname: "127.0.0.1",
	port: 0,
	async fetch(req) {
		const url = new URL(req.url);
		const headers: Record<string, string> = {};
		req.headers.forEach((v, k) => {
			headers[k] = v;
		});
		const body = await req.text();
		seen.push({ path: url.pathname + url.search, headers, body });
		if (url.pathname === "/federation/credentials") {
			if (headers["x-amz-sso_bearer_token"] !== "sso-access-token")
				return new Response('{"message":"bad token"}', { status: 401 });
			return Response.json({
				roleCredentials: {
					accessKeyId: "ASIASSO",
					secretAccessKey: SECRET2,
					sessionToken: "sso-session",
					expiration: Date.now() + 3600_000,
				},
			});
		}
		if (url.pathname === "/" && body.includes("Action=AssumeRole")) {
			const action = /Action=(\w+)/.exec(body)?.[1];
			return new Response(
				`<${action}Response><${action}Result><Credentials><AccessKeyId>ASIAROLE</AccessKeyId><SecretAccessKey>${SECRET2}</SecretAccessKey><SessionToken>role-session</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials></${action}Result></${action}Response>`,
				{ headers: { "content-type": "text/xml" } },
			);
		}
		if (url.pathname === "/ecs") {
			if (headers.authorization !== "ecs-auth") return new Response("no", { status: 403 });
			return Response.json({
				AccessKeyId: "ASIAECS",
				SecretAccessKey: SECRET2,
				Token: "ecs-token",
				Expiration: "2099-01-01T00:00:00Z",
			});
		}
		return new Response("not found", { status: 404 });
	},
});
const base = `http://127.0.0.1:${server.port}`;
afterAll(() => server.stop(true));
beforeEach(() => {
	clearAwsCredentialCache();
	seen.length = 0;
});

function home(files: Record<string, string>): string {
	const dir = makeTempDir("pi-aws-");
	writeTree(dir, files);
	return dir;
}

async function failure(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected a failure");
}

describe("AWS credential chain", () => {
	test("environment keys, unless a profile is named", async () => {
		const HOME = home({
			".aws/credentials": `[dev]\naws_access_key_id = AKIADEV\naws_secret_access_key = ${SECRET2}\n`,
		});
		const env = { HOME, AWS_ACCESS_KEY_ID: "AKIAENV", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: "tok" };
		expect(await resolveAwsCredentials({ env })).toEqual({
			credentials: { accessKeyId: "AKIAENV", secretAccessKey: SECRET, sessionToken: "tok" },
			source: "environment",
		});
		const viaProfile = await resolveAwsCredentials({ env: { ...env, AWS_PROFILE: "dev" } });
		expect(viaProfile.credentials.accessKeyId).toBe("AKIADEV");
		expect(viaProfile.source).toBe('profile "dev"');
	});

	test("static keys: credentials file over config file; [default] when no profile is named", async () => {
		const HOME = home({
			".aws/credentials": `# comment\n[default]\naws_access_key_id = AKIADEFAULT ; inline comment\naws_secret_access_key=${SECRET}\n`,
			".aws/config": `[default]\nregion = eu-west-3\naws_access_key_id = AKIAIGNORED\n[profile work]\naws_access_key_id = AKIAWORK\naws_secret_access_key = ${SECRET2}\naws_session_token = worktoken\ns3 =\n  max_concurrent_requests = 4\n`,
		});
		const def = await resolveAwsCredentials({ env: { HOME } });
		expect(def.credentials).toEqual({ accessKeyId: "AKIADEFAULT", secretAccessKey: SECRET });
		const work = await resolveAwsCredentials({ env: { HOME }, profile: "work" });
		expect(work.credentials).toEqual({ accessKeyId: "AKIAWORK", secretAccessKey: SECRET2, sessionToken: "worktoken" });
	});

	test("AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move the files", async () => {
		const dir = home({ "elsewhere/creds": `[x]\naws_access_key_id = AKIAX\naws_secret_access_key = ${SECRET}\n` });
		const got = await resolveAwsCredentials({
			env: { HOME: "/nonexistent", AWS_SHARED_CREDENTIALS_FILE: join(dir, "elsewhere/creds"), AWS_PROFILE: "x" },
		});
		expect(got.credentials.accessKeyId).toBe("AKIAX");
	});

	test("malformed files and profiles: one line naming the file and the field, no secret", async () => {
		const HOME = home({
			".aws/credentials": `[broken]\naws_access_key_id = AKIABROKEN\nthis line has no equals ${SECRET}\n`,
		});
		const bad = await failure(resolveAwsCredentials({ env: { HOME, AWS_PROFILE: "broken" } }));
		expect(bad).toBe(`${join(HOME, ".aws/credentials")} line 3: expected "key = value" or a [section] header`);
		const HOME2 = home({ ".aws/credentials": "[half]\naws_access_key_id = AKIAHALF\n" });
		const half = await failure(resolveAwsCredentials({ env: { HOME: HOME2, AWS_PROFILE: "half" } }));
		expect(half).toContain('profile "half"');
		expect(half).toContain("aws_secret_access_key is missing");
		const HOME3 = home({ ".aws/credentials": `[other]\naws_access_key_id = A\naws_secret_access_key = ${SECRET}\n` });
		const missing = await failure(resolveAwsCredentials({ env: { HOME: HOME3, AWS_PROFILE: "nope" } }));
		expect(missing).toContain('AWS profile "nope" is not defined');
		const none = await failure(resolveAwsCredentials({ env: { HOME: makeTempDir("pi-aws-empty-") } }));
		expect(none).toContain("No AWS credentials for Amazon Bedrock");
		for (const message of [bad, half, missing, none]) {
			expect(message).not.toContain(SECRET);
			expect(message.split("\n")).toHaveLength(1);
		}
	});

	test("indented sub-keys and comments parse as the SDK reads them", () => {
		expect(parseIni("[a]\nx = 1 # c\ns3 =\n  y = 2\nz=;notcomment\n", "f")).toEqual({
			a: { x: "1", s3: "", "s3.y": "2", z: ";notcomment" },
		});
	});

	test("credential_process: JSON Version 1 read from the command; bad output named", async () => {
		const HOME = home({
			"bin/creds.sh": `#!/bin/sh\necho '{"Version": 1, "AccessKeyId": "ASIAPROC", "SecretAccessKey": "${SECRET}", "SessionToken": "proc-token", "Expiration": "2099-01-01T00:00:00Z"}'\n`,
			"bin/bad.sh": `#!/bin/sh\necho 'not json ${SECRET}'\n`,
			"bin/fail.sh": "#!/bin/sh\necho oops >&2\nexit 3\n",
		});
		writeTree(HOME, {
			".aws/config": `[profile proc]\ncredential_process = sh ${HOME}/bin/creds.sh\n[profile bad]\ncredential_process = sh ${HOME}/bin/bad.sh\n[profile fail]\ncredential_process = sh ${HOME}/bin/fail.sh\n`,
		});
		const got = await resolveAwsCredentials({ env: { HOME }, profile: "proc" });
		expect(got.credentials).toEqual({ accessKeyId: "ASIAPROC", secretAccessKey: SECRET, sessionToken: "proc-token" });
		const bad = await failure(resolveAwsCredentials({ env: { HOME }, profile: "bad" }));
		expect(bad).toContain('profile "bad"');
		expect(bad).toContain("credential_process printed no JSON object");
		expect(bad).not.toContain(SECRET);
		expect(await failure(resolveAwsCredentials({ env: { HOME }, profile: "fail" }))).toContain(
			"credential_process exited with status 3",
		);
	});

	test("SSO: the cached token (sso-session and legacy start URL) is exchanged for role credentials", async () => {
		const key = (s: string) => createHash("sha1").update(s).digest("hex");
		const token = JSON.stringify({ accessToken: "sso-access-token", expiresAt: "2099-01-01T00:00:00Z" });
		const HOME = home({
			".aws/config": `[profile sso]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Dev\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n[profile legacy]\nsso_start_url = https://old.awsapps.com/start\nsso_region = eu-west-1\nsso_account_id = 1\nsso_role_name = R\n[profile incomplete]\nsso_session = corp\nsso_account_id = 1\n`,
			[`.aws/sso/cache/${key("corp")}.json`]: token,
			[`.aws/sso/cache/${key("https://old.awsapps.com/start")}.json`]: token,
		});
		const env = { HOME, AWS_ENDPOINT_URL_SSO: base };
		const got = await resolveAwsCredentials({ env, profile: "sso" });
		expect(got.credentials).toEqual({ accessKeyId: "ASIASSO", secretAccessKey: SECRET2, sessionToken: "sso-session" });
		expect(seen[0]?.path).toBe("/federation/credentials?account_id=111122223333&role_name=Dev");
		expect((await resolveAwsCredentials({ env, profile: "legacy" })).credentials.accessKeyId).toBe("ASIASSO");
		const incomplete = await failure(resolveAwsCredentials({ env, profile: "incomplete" }));
		expect(incomplete).toContain("SSO profile lacks sso_role_name");
	});

	test("SSO: an expired or missing token says to log in again", async () => {
		const key = createHash("sha1").update("corp").digest("hex");
		const HOME = home({
			".aws/config":
				"[profile sso]\nsso_session = corp\nsso_account_id = 1\nsso_role_name = Dev\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n",
			[`.aws/sso/cache/${key}.json`]: JSON.stringify({ accessToken: "old", expiresAt: "2001-01-01T00:00:00Z" }),
		});
		expect(await failure(resolveAwsCredentials({ env: { HOME }, profile: "sso" }))).toContain(
			'the SSO session expired; run "aws sso login"',
		);
		const HOME2 = home({
			".aws/config":
				"[profile s]\nsso_start_url = https://x\nsso_region = us-east-1\nsso_account_id = 1\nsso_role_name = R\n",
		});
		expect(await failure(resolveAwsCredentials({ env: { HOME: HOME2 }, profile: "s" }))).toContain(
			"no SSO token cache",
		);
		const HOME3 = home({
			".aws/config":
				"[profile s]\nsso_start_url = https://y\nsso_region = us-east-1\nsso_account_id = 1\nsso_role_name = R\n",
			[`.aws/sso/cache/${createHash("sha1").update("https://y").digest("hex")}.json`]:
				'{"expiresAt":"2099-01-01T00:00:00Z"}',
		});
		expect(await failure(resolveAwsCredentials({ env: { HOME: HOME3 }, profile: "s" }))).toContain(
			'field "accessToken" is missing',
		);
	});

	test("source_profile: STS AssumeRole signed with the source's keys; loops refused", async () => {
		const HOME = home({
			".aws/credentials": `[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = ${SECRET}\n`,
			".aws/config":
				"[profile role]\nrole_arn = arn:aws:iam::1:role/Dev\nsource_profile = base\nregion = us-west-2\n[profile chained]\nrole_arn = arn:aws:iam::1:role/Other\nsource_profile = role\n[profile a]\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = a\n",
		});
		const env = { HOME, AWS_ENDPOINT_URL_STS: base };
		const got = await resolveAwsCredentials({ env, profile: "role" });
		expect(got.credentials).toEqual({
			accessKeyId: "ASIAROLE",
			secretAccessKey: SECRET2,
			sessionToken: "role-session",
		});
		const call = seen[0] as Seen;
		expect(call.body).toContain("Action=AssumeRole");
		expect(call.body).toContain("RoleArn=arn%3Aaws%3Aiam%3A%3A1%3Arole%2FDev");
		expect(call.headers.authorization).toStartWith("AWS4-HMAC-SHA256 Credential=AKIABASE/");
		expect(call.headers.authorization).toContain("/us-west-2/sts/aws4_request");
		seen.length = 0;
		clearAwsCredentialCache();
		await resolveAwsCredentials({ env, profile: "chained" });
		expect(seen.map((s) => s.headers.authorization?.split("/")[0])).toEqual([
			"AWS4-HMAC-SHA256 Credential=AKIABASE",
			"AWS4-HMAC-SHA256 Credential=ASIAROLE",
		]);
		expect(await failure(resolveAwsCredentials({ env, profile: "a" }))).toContain(
			"source_profile chain loops (a → b → a)",
		);
	});

	test("web identity (IRSA) and the ECS container endpoint", async () => {
		const HOME = home({ "token.jwt": "eyJhbGciOi.jwt.token\n", "ecs-token": "ecs-auth\n" });
		const irsa = await resolveAwsCredentials({
			env: {
				HOME,
				AWS_WEB_IDENTITY_TOKEN_FILE: join(HOME, "token.jwt"),
				AWS_ROLE_ARN: "arn:aws:iam::1:role/Pod",
				AWS_ENDPOINT_URL_STS: base,
			},
		});
		expect(irsa).toEqual({
			credentials: { accessKeyId: "ASIAROLE", secretAccessKey: SECRET2, sessionToken: "role-session" },
			source: "web identity token",
		});
		expect(seen[0]?.body).toContain("WebIdentityToken=eyJhbGciOi.jwt.token");
		expect(seen[0]?.headers.authorization).toBeUndefined();
		const ecs = await resolveAwsCredentials({
			env: {
				HOME,
				AWS_CONTAINER_CREDENTIALS_FULL_URI: `${base}/ecs`,
				AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: join(HOME, "ecs-token"),
			},
		});
		expect(ecs).toEqual({
			credentials: { accessKeyId: "ASIAECS", secretAccessKey: SECRET2, sessionToken: "ecs-token" },
			source: "ECS task role",
		});
	});

	test("expiring credentials are cached until shortly before they expire", async () => {
		const HOME = home({
			"bin/count.sh": `#!/bin/sh\necho x >> ${"$"}HOME/calls\necho '{"Version":1,"AccessKeyId":"A","SecretAccessKey":"S","Expiration":"2099-01-01T00:00:00Z"}'\n`,
		});
		writeTree(HOME, { ".aws/config": `[default]\ncredential_process = sh ${HOME}/bin/count.sh\n` });
		await resolveAwsCredentials({ env: { HOME } });
		await resolveAwsCredentials({ env: { HOME } });
		expect((await Bun.file(join(HOME, "calls")).text()).trim().split("\n")).toHaveLength(1);
		await resolveAwsCredentials({ env: { HOME }, now: () => Date.parse("2098-12-31T23:58:00Z") });
		expect((await Bun.file(join(HOME, "calls")).text()).trim().split("\n")).toHaveLength(2);
	});
});
