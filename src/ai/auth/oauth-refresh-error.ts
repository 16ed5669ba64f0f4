/**
 * The one line a failed OAuth refresh shows. A refresh token the provider refuses (`invalid_grant`: revoked,
 * expired, or already used by another client) cannot be retried: the user has to sign in again, so the line says
 * which provider and the command that does it. Other failures (network, server errors) keep their reason.
 */
import { errorMessage } from "../../util/index.ts";

export class OAuthLoginRequiredError extends Error {
	readonly provider: string;
	constructor(provider: string, reason: string) {
		super(
			`The saved login for "${provider}" is no longer valid (${reason}); log in again with /login ${provider} (or \`pi login ${provider}\`)`,
		);
		this.name = "OAuthLoginRequiredError";
		this.provider = provider;
	}
}

export function oauthRefreshFailure(provider: string, error: unknown): Error {
	const detail = error as { revoked?: unknown; oauthError?: unknown } | undefined;
	if (detail?.revoked === true) {
		const code = typeof detail.oauthError === "string" ? detail.oauthError : "refused";
		return new OAuthLoginRequiredError(provider, `the refresh token was refused: ${code}`);
	}
	return new Error(`OAuth token refresh for "${provider}" failed: ${errorMessage(error)}`);
}
