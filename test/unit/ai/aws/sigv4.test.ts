import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../../scripts/conformance-cache.ts";
import { signRequest } from "../../../../src/ai/aws/sigv4.ts";

// AWS's published SigV4 test suite (docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html).
const suite = {
	credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
	date: new Date("2015-08-30T12:36:00Z"),
	region: "us-east-1",
	service: "service",
};
const scope = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request";
const vectors: { name: string; method: string; url: string; headers?: Record<string, string>; want: string }[] = [
	{
		name: "get-vanilla",
		method: "GET",
		url: "https://example.amazonaws.com/",
		want: "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
	},
	{
		name: "post-vanilla",
		method: "POST",
		url: "https://example.amazonaws.com/",
		want: "SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
	},
	{
		name: "get-vanilla-query-order-key-case",
		method: "GET",
		url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
		want: "SignedHeaders=host;x-amz-date, Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
	},
	{
		name: "post-header-value-case",
		method: "POST",
		url: "https://example.amazonaws.com/",
		headers: { "My-Header1": "VALUE1" },
		want: "SignedHeaders=host;my-header1;x-amz-date, Signature=cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d",
	},
	{
		name: "get-header-key-duplicate (values joined)",
		method: "GET",
		url: "https://example.amazonaws.com/",
		headers: { "My-Header1": "value2,value2,value1" },
		want: "SignedHeaders=host;my-header1;x-amz-date, Signature=c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea",
	},
	{
		name: "normalize-path/get-special-character",
		method: "GET",
		url: "https://example.amazonaws.com/example/$delete",
		want: "SignedHeaders=host;x-amz-date, Signature=a853c9b21b528b19643d00910d35b83a10c366a10833ceefb45edd6c80e40f27",
	},
];

describe("SigV4 signing", () => {
	for (const v of vectors) {
		test(`AWS test suite: ${v.name}`, async () => {
			const headers = await signRequest({
				...suite,
				method: v.method,
				url: v.url,
				headers: v.headers ?? {},
				body: "",
				contentSha256: false,
			});
			expect(headers.authorization).toBe(`${scope}, ${v.want}`);
			expect(headers["x-amz-date"]).toBe("20150830T123600Z");
		});
	}

	test("a session token is sent and signed; hop-by-hop headers are not signed", async () => {
		const headers = await signRequest({
			...suite,
			credentials: { ...suite.credentials, sessionToken: "TOKEN" },
			method: "POST",
			url: "https://example.amazonaws.com/",
			headers: { "User-Agent": "pi", "Content-Type": "application/json" },
			body: "{}",
		});
		expect(headers["x-amz-security-token"]).toBe("TOKEN");
		expect(headers["x-amz-content-sha256"]).toBe("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
		expect(headers.authorization).toContain(
			"SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,",
		);
	});

	test("the same signature as the AWS SDK pi-ai 0.87.1 uses (ConverseStream request)", async () => {
		const pi = ensureRunnablePi();
		if ("error" in pi) {
			console.log(`skipped: ${pi.error}`);
			return;
		}
		const script = `import { BedrockRuntimeClient, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
Date.now = () => Date.UTC(2026, 0, 2, 3, 4, 5);
let req;
const client = new BedrockRuntimeClient({ region: "us-west-2",
  credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret/KEY+x", sessionToken: "tok==" },
  requestHandler: { handle: async (r) => { req = r; throw new Error("captured"); } } });
await client.send(new ConverseStreamCommand({ modelId: "anthropic.claude-3-5-sonnet-20240620-v1:0",
  messages: [{ role: "user", content: [{ text: "hi ünïcode" }] }] })).catch(() => {});
const body = typeof req.body === "string" ? req.body : Buffer.from(req.body).toString();
console.log(JSON.stringify({ method: req.method, url: "https://" + req.hostname + req.path, headers: req.headers, body }));`;
		const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
			cwd: dirname(pi.modules),
			stdout: "pipe",
			stderr: "pipe",
		});
		if (run.exitCode !== 0) throw new Error(`node could not sign: ${run.stderr.toString().slice(0, 800)}`);
		const theirs = JSON.parse(run.stdout.toString()) as {
			method: string;
			url: string;
			headers: Record<string, string>;
			body: string;
		};
		const {
			authorization,
			"x-amz-date": _d,
			"x-amz-security-token": _t,
			"x-amz-content-sha256": _s,
			...rest
		} = theirs.headers;
		expect(theirs.url).toContain("%3A0/converse-stream");
		const ours = await signRequest({
			method: theirs.method,
			url: theirs.url,
			headers: rest,
			body: theirs.body,
			region: "us-west-2",
			service: "bedrock",
			credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "secret/KEY+x", sessionToken: "tok==" },
			date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
		});
		expect(ours.authorization).toBe(authorization as string);
		expect(ours["x-amz-content-sha256"]).toBe(theirs.headers["x-amz-content-sha256"] as string);
	});
});
