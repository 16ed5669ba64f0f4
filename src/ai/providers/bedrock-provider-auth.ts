/**
 * How the `amazon-bedrock` provider authenticates (pi-ai 0.87.1's method, "AWS credentials or bearer token"):
 * - `/login` offers a bearer token (stored as the key), an AWS profile (stored as `env.AWS_PROFILE`, so it wins
 *   over ambient keys), or the existing AWS credential chain (nothing stored but the choice);
 * - resolving prefers a stored key, then `AWS_BEARER_TOKEN_BEDROCK`, a stored or ambient `AWS_PROFILE`, AWS access
 *   keys, an ECS task role, a web identity token file. Ambient credentials are never copied into the store: the
 *   request finds them itself (`aws/credential-chain.ts`).
 */
import type { ApiKeyAuth, AuthResult } from "../auth/provider-auth-types.ts";

const CHAIN_DOCS = "https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html";

export const bedrockApiKeyAuth: ApiKeyAuth = {
	name: "AWS credentials or bearer token",
	async login(interaction) {
		interaction.signal.throwIfAborted();
		const method = await interaction.prompt({
			type: "select",
			message: "Select Amazon Bedrock authentication method:",
			options: [
				{ id: "bearer-token", label: "Bearer token" },
				{ id: "aws-profile", label: "AWS profile" },
				{ id: "credential-chain", label: "Existing AWS credential chain" },
			],
		});
		interaction.signal.throwIfAborted();
		if (method === "bearer-token") {
			const key = await interaction.prompt({ type: "secret", message: "Enter Amazon Bedrock bearer token" });
			return { type: "api_key", key };
		}
		interaction.notify({
			type: "info",
			message: "Amazon Bedrock supports AWS profiles, IAM credentials, and role-based credentials.",
			links: [{ label: "AWS credential provider chain", url: CHAIN_DOCS }],
		});
		if (method === "aws-profile") {
			const profile = await interaction.prompt({ type: "text", message: "Enter AWS profile name" });
			return { type: "api_key", env: { AWS_PROFILE: profile } };
		}
		if (method !== "credential-chain") throw new Error(`Unknown Amazon Bedrock auth method: ${method}`);
		await interaction.prompt({ type: "text", message: "Configure AWS credentials, then press Enter to continue" });
		return { type: "api_key" };
	},
	async resolve({ ctx, credential, signal }): Promise<AuthResult | undefined> {
		const env = async (name: string) => {
			signal.throwIfAborted();
			const value = await ctx.env(name);
			signal.throwIfAborted();
			return value;
		};
		if (credential?.key) {
			return {
				auth: { apiKey: credential.key },
				...(credential.env ? { env: credential.env } : {}),
				source: "stored credential",
			};
		}
		if (await env("AWS_BEARER_TOKEN_BEDROCK")) return { auth: {}, source: "AWS_BEARER_TOKEN_BEDROCK" };
		const storedProfile = credential?.env?.AWS_PROFILE;
		if (storedProfile || (await env("AWS_PROFILE"))) {
			return {
				auth: {},
				...(credential?.env ? { env: credential.env } : {}),
				source: storedProfile ? "stored credential" : "AWS_PROFILE",
			};
		}
		if ((await env("AWS_ACCESS_KEY_ID")) && (await env("AWS_SECRET_ACCESS_KEY"))) {
			return { auth: {}, source: "AWS access keys" };
		}
		if ((await env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) || (await env("AWS_CONTAINER_CREDENTIALS_FULL_URI"))) {
			return { auth: {}, source: "ECS task role" };
		}
		if (await env("AWS_WEB_IDENTITY_TOKEN_FILE")) return { auth: {}, source: "web identity token" };
		return undefined;
	},
};
