/**
 * OpenAI Codex device-code login (pi-ai 0.87.1): ask auth.openai.com for a user code, show it with the page to
 * enter it on, poll until the user approved (403/404 or `deviceauth_authorization_pending` mean "not yet",
 * `slow_down` adds five seconds), then exchange the authorization code and verifier the poll returns. Gives up
 * after 15 minutes.
 */
import type { ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { LOGIN_CANCELLED } from "./cancel.ts";
import { oauthEndpoint } from "./endpoints.ts";
import { CODEX_CLIENT_ID, exchangeCodexCode } from "./openai-codex.ts";

const USER_CODE_URL = "https://auth.openai.com/api/accounts/deviceauth/usercode";
const POLL_URL = "https://auth.openai.com/api/accounts/deviceauth/token";
const VERIFICATION_URI = "https://auth.openai.com/codex/device";
const DEVICE_REDIRECT_URI = "https://auth.openai.com/deviceauth/callback";
const TIMEOUT_SECONDS = 15 * 60;

async function post(url: string, body: unknown, signal: AbortSignal): Promise<Response> {
	try {
		return await fetch(oauthEndpoint(url), {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify(body),
			signal,
		});
	} catch (error) {
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		throw new Error(`OpenAI device login: cannot reach auth.openai.com: ${(error as Error).message}`);
	}
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(new Error(LOGIN_CANCELLED));
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});
}

export async function codexDeviceLogin(interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { signal } = interaction;
	const start = await post(USER_CODE_URL, { client_id: CODEX_CLIENT_ID }, signal);
	if (!start.ok) {
		if (start.status === 404)
			throw new Error("OpenAI device-code login is not enabled on this server; use the browser login");
		throw new Error(`OpenAI device-code request failed: HTTP ${start.status}`);
	}
	const device = (await start.json().catch(() => undefined)) as
		| { device_auth_id?: unknown; user_code?: unknown; interval?: unknown }
		| undefined;
	const interval = Number(typeof device?.interval === "string" ? device.interval.trim() : device?.interval);
	if (typeof device?.device_auth_id !== "string" || typeof device.user_code !== "string" || !(interval >= 0)) {
		throw new Error("OpenAI device-code answer lacks device_auth_id, user_code or interval");
	}
	interaction.notify({
		type: "device_code",
		userCode: device.user_code,
		verificationUri: VERIFICATION_URI,
		intervalSeconds: interval,
		expiresInSeconds: TIMEOUT_SECONDS,
	});
	const deadline = Date.now() + TIMEOUT_SECONDS * 1000;
	let waitMs = Math.max(1, interval) * 1000;
	while (Date.now() < deadline) {
		await sleep(waitMs, signal);
		const poll = await post(POLL_URL, { device_auth_id: device.device_auth_id, user_code: device.user_code }, signal);
		if (poll.ok) {
			const done = (await poll.json().catch(() => undefined)) as
				| { authorization_code?: unknown; code_verifier?: unknown }
				| undefined;
			if (typeof done?.authorization_code !== "string" || typeof done.code_verifier !== "string") {
				throw new Error("OpenAI device-code answer lacks authorization_code or code_verifier");
			}
			return exchangeCodexCode(done.authorization_code, done.code_verifier, DEVICE_REDIRECT_URI, signal);
		}
		if (poll.status === 403 || poll.status === 404) continue;
		const text = await poll.text().catch(() => "");
		let code: unknown;
		try {
			const error = (JSON.parse(text) as { error?: unknown }).error;
			code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : error;
		} catch {
			code = undefined;
		}
		if (code === "deviceauth_authorization_pending") continue;
		if (code === "slow_down") {
			waitMs += 5000;
			continue;
		}
		throw new Error(
			`OpenAI device-code login failed: HTTP ${poll.status}${typeof code === "string" ? ` (${code})` : ""}`,
		);
	}
	throw new Error("OpenAI device-code login timed out; start it again");
}
