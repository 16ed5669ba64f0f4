/** The amazon-bedrock auth method: pi-ai 0.87.1's login choices and resolution order. */
import { describe, expect, test } from "bun:test";
import type { AuthPrompt } from "../../../src/ai/auth/provider-auth-types.ts";
import { bedrockApiKeyAuth } from "../../../src/ai/providers/bedrock-provider-auth.ts";

const signal = new AbortController().signal;
const ctx = (vars: Record<string, string>) => ({
	env: async (name: string) => vars[name],
	fileExists: async () => false,
});

function interaction(answers: string[]) {
	const prompts: AuthPrompt[] = [];
	const notes: unknown[] = [];
	return {
		prompts,
		notes,
		signal,
		prompt: async (p: AuthPrompt) => {
			prompts.push(p);
			return answers.shift() ?? "";
		},
		notify: (e: unknown) => notes.push(e),
	};
}

describe("amazon-bedrock auth", () => {
	test("login: bearer token, AWS profile, or the ambient chain", async () => {
		const bearer = interaction(["bearer-token", "tok-123"]);
		expect(await bedrockApiKeyAuth.login?.(bearer)).toEqual({ type: "api_key", key: "tok-123" });
		expect(bearer.prompts.map((p) => p.type)).toEqual(["select", "secret"]);
		const profile = interaction(["aws-profile", "dev"]);
		expect(await bedrockApiKeyAuth.login?.(profile)).toEqual({ type: "api_key", env: { AWS_PROFILE: "dev" } });
		expect(profile.notes).toHaveLength(1);
		expect(await bedrockApiKeyAuth.login?.(interaction(["credential-chain", ""]))).toEqual({ type: "api_key" });
		await expect(bedrockApiKeyAuth.login?.(interaction(["other"]))).rejects.toThrow(
			"Unknown Amazon Bedrock auth method: other",
		);
	});

	test("resolve: stored key, bearer env, profile, keys, ECS, web identity, else nothing", async () => {
		const r = (vars: Record<string, string>, credential?: any) =>
			bedrockApiKeyAuth.resolve({ ctx: ctx(vars), credential, signal });
		expect(await r({}, { type: "api_key", key: "k" })).toEqual({ auth: { apiKey: "k" }, source: "stored credential" });
		expect((await r({ AWS_BEARER_TOKEN_BEDROCK: "t" }))?.source).toBe("AWS_BEARER_TOKEN_BEDROCK");
		expect(await r({}, { type: "api_key", env: { AWS_PROFILE: "dev" } })).toEqual({
			auth: {},
			env: { AWS_PROFILE: "dev" },
			source: "stored credential",
		});
		expect((await r({ AWS_PROFILE: "x" }))?.source).toBe("AWS_PROFILE");
		expect((await r({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" }))?.source).toBe("AWS access keys");
		expect((await r({ AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://x" }))?.source).toBe("ECS task role");
		expect((await r({ AWS_WEB_IDENTITY_TOKEN_FILE: "/t" }))?.source).toBe("web identity token");
		expect(await r({ AWS_ACCESS_KEY_ID: "only-id" })).toBeUndefined();
	});
});
