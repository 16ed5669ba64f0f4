/**
 * GitHub Copilot login, as pi-ai 0.87.1 does it: ask for a GitHub Enterprise domain (blank: github.com), run
 * GitHub's device flow with the Copilot Chat client id (scope `read:user`), exchange the GitHub token for a
 * short-lived Copilot token at `api.<domain>/copilot_internal/v2/token`, then read the account's models.
 *
 * auth.json keeps `{ type: "oauth", refresh: <GitHub token>, access: <Copilot token>, expires: <expires_at − 5 min>,
 * enterpriseUrl?: <domain>, availableModelIds: [...] }`. Refreshing exchanges the GitHub token again. Requests use
 * the Copilot token as API key and the base URL its `proxy-ep` names.
 */
import type { OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { LOGIN_CANCELLED, pollDeviceAuthorization } from "./device-code.ts";
import { type DeviceLoginDeps, type ResolvedDeps, requestJson, resolveDeps, trustedUrl } from "./device-http.ts";
import {
	COPILOT_HEADERS,
	copilotBaseUrl,
	enableCopilotModels,
	fetchCopilotModels,
	LOGIN_RETRIES,
	NO_RETRIES,
} from "./github-copilot-models.ts";

export const COPILOT_CLIENT_ID = "Iv1.b507a08c87ecfe98";
const FORM_HEADERS = { Accept: "application/json", "User-Agent": COPILOT_HEADERS["User-Agent"] as string };
const REFRESH_CANCELLED = "GitHub Copilot token refresh cancelled";

export function githubUrls(domain: string) {
	return {
		deviceCode: `https://${domain}/login/device/code`,
		accessToken: `https://${domain}/login/oauth/access_token`,
		copilotToken: `https://api.${domain}/copilot_internal/v2/token`,
	};
}

/** A host name from "company.ghe.com" or "https://company.ghe.com/…"; undefined when blank or not a URL. */
export function normalizeEnterpriseDomain(input: string): string | undefined {
	const trimmed = input.trim();
	if (!trimmed) return undefined;
	try {
		return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname || undefined;
	} catch {
		return undefined;
	}
}

function storedDomain(credential: OAuthCredential): string | undefined {
	const value = credential.enterpriseUrl;
	return typeof value === "string" && value ? normalizeEnterpriseDomain(value) : undefined;
}

function httpFailure(reply: { status: number; statusText: string; text: string }): Error {
	return new Error(`${reply.status} ${reply.statusText}: ${reply.text}`);
}

/** GitHub token → Copilot token (the stored credential without `availableModelIds`). */
async function exchangeToken(
	deps: ResolvedDeps,
	githubToken: string,
	enterpriseDomain: string | undefined,
	signal: AbortSignal,
	cancelMessage = LOGIN_CANCELLED,
): Promise<OAuthCredential> {
	const reply = await requestJson(deps, githubUrls(enterpriseDomain || "github.com").copilotToken, {
		headers: { Accept: "application/json", Authorization: `Bearer ${githubToken}`, ...COPILOT_HEADERS },
		signal,
		cancelMessage,
	});
	if (!reply.ok) throw httpFailure(reply);
	if (!reply.json) throw new Error("Invalid Copilot token response");
	const { token, expires_at: expiresAt } = reply.json;
	if (typeof token !== "string" || typeof expiresAt !== "number")
		throw new Error("Invalid Copilot token response fields");
	return {
		type: "oauth",
		refresh: githubToken,
		access: token,
		expires: expiresAt * 1000 - 5 * 60 * 1000,
		...(enterpriseDomain ? { enterpriseUrl: enterpriseDomain } : {}),
	};
}

async function githubDeviceFlow(
	deps: ResolvedDeps,
	domain: string,
	interaction: ProviderAuthInteraction,
): Promise<string> {
	const { signal } = interaction;
	const urls = githubUrls(domain);
	const start = await requestJson(deps, urls.deviceCode, {
		headers: FORM_HEADERS,
		form: { client_id: COPILOT_CLIENT_ID, scope: "read:user" },
		signal,
	});
	if (!start.ok) throw httpFailure(start);
	if (!start.json) throw new Error("Invalid device code response");
	const { device_code: deviceCode, user_code: userCode, verification_uri: uri, interval, expires_in } = start.json;
	if (
		typeof deviceCode !== "string" ||
		typeof userCode !== "string" ||
		typeof uri !== "string" ||
		(interval !== undefined && typeof interval !== "number") ||
		typeof expires_in !== "number"
	)
		throw new Error("Invalid device code response fields");
	const verificationUri = trustedUrl(uri);
	if (!verificationUri) throw new Error("Untrusted verification_uri in device code response");
	interaction.notify({
		type: "device_code",
		userCode,
		verificationUri,
		intervalSeconds: interval,
		expiresInSeconds: expires_in,
	});
	return pollDeviceAuthorization<string>({
		intervalSeconds: interval,
		expiresInSeconds: expires_in,
		waitBeforeFirstPoll: true,
		signal,
		clock: deps.clock,
		poll: async () => {
			const reply = await requestJson(deps, urls.accessToken, {
				headers: FORM_HEADERS,
				form: {
					client_id: COPILOT_CLIENT_ID,
					device_code: deviceCode,
					grant_type: "urn:ietf:params:oauth:grant-type:device_code",
				},
				signal,
			});
			if (!reply.ok) throw httpFailure(reply);
			const json = reply.json;
			if (typeof json?.access_token === "string") return { status: "complete", value: json.access_token };
			if (typeof json?.error !== "string") return { status: "failed", message: "Invalid device token response" };
			if (json.error === "authorization_pending") return { status: "pending" };
			if (json.error === "slow_down")
				return {
					status: "slow_down",
					intervalSeconds: typeof json.interval === "number" ? json.interval : undefined,
				};
			const description = json.error_description ? `: ${json.error_description}` : "";
			return { status: "failed", message: `Device flow failed: ${json.error}${description}` };
		},
	});
}

async function login(deps: ResolvedDeps, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { signal } = interaction;
	const input = await interaction.prompt({
		type: "text",
		message: "GitHub Enterprise URL/domain (blank for github.com)",
		placeholder: "company.ghe.com",
	});
	if (signal.aborted) throw new Error(LOGIN_CANCELLED);
	const enterpriseDomain = normalizeEnterpriseDomain(input);
	if (input.trim() && !enterpriseDomain) throw new Error("Invalid GitHub Enterprise URL/domain");
	const githubToken = await githubDeviceFlow(deps, enterpriseDomain ?? "github.com", interaction);
	const credential = await exchangeToken(deps, githubToken, enterpriseDomain, signal);
	const models = await fetchCopilotModels(deps, credential.access, enterpriseDomain, signal, LOGIN_RETRIES);
	let enabled: string[] = [];
	if (models.policyModelIds.length > 0) {
		interaction.notify({ type: "progress", message: "Enabling models..." });
		enabled = await enableCopilotModels(deps, credential, models.policyModelIds, enterpriseDomain, signal);
	}
	return { ...credential, availableModelIds: [...new Set([...models.availableModelIds, ...enabled])] };
}

async function refresh(deps: ResolvedDeps, credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const domain = storedDomain(credential);
	const next = await exchangeToken(deps, credential.refresh, domain, signal, REFRESH_CANCELLED);
	const { availableModelIds } = await fetchCopilotModels(deps, next.access, domain, signal, NO_RETRIES);
	return { ...next, availableModelIds };
}

/** The GitHub Copilot login; `deps` replaces fetch, the clock or the environment (tests). */
export function createGitHubCopilotOAuth(deps?: DeviceLoginDeps): OAuthAuth {
	const resolved = resolveDeps(deps);
	return {
		name: "GitHub Copilot",
		isSubscription: true,
		login: (interaction) => login(resolved, interaction),
		refresh: (credential, signal) => refresh(resolved, credential, signal),
		toAuth: async (credential) => ({
			apiKey: credential.access,
			baseUrl: copilotBaseUrl(credential.access, storedDomain(credential)),
		}),
	};
}

export const githubCopilotOAuth: OAuthAuth = createGitHubCopilotOAuth();

export { filterCopilotModels } from "../provider-model-filters.ts";
