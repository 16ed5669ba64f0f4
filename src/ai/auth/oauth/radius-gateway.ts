/** The Radius gateway's address rules, shared by its sign-in and its collection provider (no login code loaded). */
export const DEFAULT_RADIUS_GATEWAY = "https://radius.pi.dev";

/** A gateway as pi writes it: `https://` added when no scheme is given, trailing slashes dropped. */
export function normalizeRadiusGatewayUrl(value: string): string {
	const url = /^https?:\/\//i.test(value) ? value : `https://${value}`;
	return url.replace(/\/+$/, "");
}
