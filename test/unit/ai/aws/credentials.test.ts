import { describe, expect, test } from "bun:test";
import { awsCredentialsFromEnv, bedrockRegion, redactCredentials } from "../../../../src/ai/aws/credentials.ts";
import { signRequest } from "../../../../src/ai/aws/sigv4.ts";

const env = {
	AWS_ACCESS_KEY_ID: "AKIAEXAMPLEKEYID123",
	AWS_SECRET_ACCESS_KEY: "s3cr3t/Secret+Key",
	AWS_SESSION_TOKEN: "FwoGZXIvYXdzSESSIONTOKEN==",
};

describe("AWS credentials from the environment", () => {
	test("both keys are needed; the session token is optional", () => {
		expect(awsCredentialsFromEnv(env)).toEqual({
			accessKeyId: env.AWS_ACCESS_KEY_ID,
			secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
			sessionToken: env.AWS_SESSION_TOKEN,
		});
		expect(awsCredentialsFromEnv({ AWS_ACCESS_KEY_ID: "x" })).toBeUndefined();
		expect(awsCredentialsFromEnv({ ...env, AWS_SESSION_TOKEN: "" })).not.toHaveProperty("sessionToken");
	});

	test("region: explicit, then AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1", () => {
		expect(bedrockRegion("eu-west-1", { AWS_REGION: "us-west-2" })).toBe("eu-west-1");
		expect(bedrockRegion(undefined, { AWS_REGION: "us-west-2", AWS_DEFAULT_REGION: "ap-south-1" })).toBe("us-west-2");
		expect(bedrockRegion(undefined, { AWS_DEFAULT_REGION: "ap-south-1" })).toBe("ap-south-1");
		expect(bedrockRegion(undefined, {})).toBe("us-east-1");
	});

	test("no credential survives redaction of an error that echoes the signed request", async () => {
		const credentials = awsCredentialsFromEnv(env);
		const headers = await signRequest({
			method: "POST",
			url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream",
			headers: {},
			body: "{}",
			region: "us-east-1",
			service: "bedrock",
			credentials: credentials as NonNullable<typeof credentials>,
		});
		const echoed = `403 from AWS: ${JSON.stringify(headers)} secret=${env.AWS_SECRET_ACCESS_KEY}`;
		const shown = redactCredentials(echoed, credentials);
		for (const secret of Object.values(env)) expect(shown).not.toContain(secret);
		expect(shown).toContain("[redacted]");
		// The signature itself never carries the secret.
		expect(headers.authorization).not.toContain(env.AWS_SECRET_ACCESS_KEY);
	});
});
