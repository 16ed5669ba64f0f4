/**
 * Requests to an OAuth token endpoint (authorization-code exchange and refresh) and what their answers mean.
 * Errors name the endpoint's status and its OAuth `error` code, never the request or response body (they carry
 * codes and tokens). A refresh refused with `invalid_grant` means the refresh token was revoked or has expired:
 * `OAuthTokenError.revoked` tells callers to ask for a new login instead of retrying.
 */
import { LOGIN_CANCELLED } from "./cancel.ts";
import { oauthEndpoint } from "./endpoints.ts";

export interface TokenResponse {
	access_token: string;
	refresh_token?: string;
	expires_in: number;
	[field: string]: unknown;
}

export class OAuthTokenError extends Error {
	readonly status: number | undefined;
	readonly oauthError: string | undefined;
	/** The grant itself is no good any more (revoked or expired refresh token, used code). */
	readonly revoked: boolean;
	constructor(message: string, options: { status?: number; oauthError?: string; cause?: unknown } = {}) {
		super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
		this.name = "OAuthTokenError";
		this.status = options.status;
		this.oauthError = options.oauthError;
		this.revoked = options.oauthError === "invalid_grant";
	}
}

const TOKEN_TIMEOUT_MS = 30_000;

function clip(text: string, max = 160): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** POSTs a grant to `url` (through the test-origin seam) as JSON or as a form; the parsed token answer. */
export async function requestToken(
	url: string,
	fields: Record<string, string>,
	options: { encoding: "json" | "form"; what: string; signal?: AbortSignal | undefined },
): Promise<TokenResponse> {
	const signals = [AbortSignal.timeout(TOKEN_TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
	let response: Response;
	try {
		response = await fetch(oauthEndpoint(url), {
			method: "POST",
			headers: {
				accept: "application/json",
				"content-type": options.encoding === "json" ? "application/json" : "application/x-www-form-urlencoded",
			},
			body: options.encoding === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
			signal: AbortSignal.any(signals),
		});
	} catch (error) {
		if (options.signal?.aborted) throw new Error(LOGIN_CANCELLED);
		const reason = error instanceof Error ? error.message : String(error);
		throw new OAuthTokenError(`${options.what}: cannot reach ${new URL(url).host}: ${reason}`, { cause: error });
	}
	const text = await response.text();
	let json: Record<string, unknown> | undefined;
	try {
		const parsed: unknown = JSON.parse(text);
		if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
	} catch {
		json = undefined;
	}
	if (!response.ok) {
		const code = typeof json?.error === "string" ? json.error : undefined;
		const description =
			typeof json?.error_description === "string"
				? json.error_description
				: typeof (json?.error as { message?: unknown } | undefined)?.message === "string"
					? String((json?.error as { message: string }).message)
					: undefined;
		const detail = [code, description ? clip(description) : undefined].filter(Boolean).join(": ");
		throw new OAuthTokenError(`${options.what} failed: HTTP ${response.status}${detail ? ` (${detail})` : ""}`, {
			status: response.status,
			...(code ? { oauthError: code } : {}),
		});
	}
	if (!json || typeof json.access_token !== "string" || typeof json.expires_in !== "number") {
		throw new OAuthTokenError(`${options.what}: the answer has no access_token/expires_in`, {
			status: response.status,
		});
	}
	return json as TokenResponse;
}
