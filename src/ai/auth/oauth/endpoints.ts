/**
 * Where the built-in OAuth flows send their requests. Every authorize, token, device-code and account URL of a
 * login goes through `oauthEndpoint`, so one variable can point a whole login at a stand-in server:
 * `PI_OAUTH_TEST_ORIGIN=http://127.0.0.1:PORT` keeps each URL's path and query and replaces its origin (the tests'
 * loopback authorization server uses it; nothing else should). The public callback ports and redirect URIs are
 * not affected.
 */

/** The URL to request for a provider's OAuth endpoint `url` (an absolute https URL). */
export function oauthEndpoint(url: string, env: Record<string, string | undefined> = process.env): string {
	const origin = env.PI_OAUTH_TEST_ORIGIN;
	if (!origin) return url;
	const target = new URL(url);
	const replacement = new URL(origin);
	return `${replacement.origin}${target.pathname}${target.search}`;
}
