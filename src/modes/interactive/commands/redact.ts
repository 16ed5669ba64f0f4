/**
 * Redaction for the local bug report, with the rules pi 0.87.1 applies to what its report carries: any value under
 * a key that names a secret (api key, secret, token, password, credential, authorization, cookie; camelCase and
 * snake/kebab case alike) becomes `<redacted>`, and URLs, alone or inside text, lose their user info and
 * secret-named query parameters. Settings also drop `trackingId`.
 */

export const REDACTED = "<redacted>";

const SECRET_KEY = /(?:^|[-_])(api[-_]?key|secret|token|password|passwd|credential|authorization|cookie)(?:$|[-_])/i;

/** Whether a JSON key names a secret (`apiKey`, `api_key`, `AUTH_TOKEN`, `x-api-key`, …). */
export function isSecretKey(key: string): boolean {
	return SECRET_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2"));
}

/** A URL without credentials or secret query values; anything that is not a URL comes back unchanged. */
export function redactUrl(value: string): string {
	// `git+https://…` and similar wrap a URL after a scheme of their own.
	const wrapped = /^([a-z][a-z0-9+.-]*:)([a-z][a-z0-9+.-]*:\/\/.*)$/i.exec(value);
	if (wrapped) return `${wrapped[1]}${redactUrl(wrapped[2] as string)}`;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return value;
	}
	let changed = false;
	if (url.username || url.password) {
		url.username = "";
		url.password = "";
		changed = true;
	}
	for (const key of [...url.searchParams.keys()]) {
		if (isSecretKey(key)) {
			url.searchParams.set(key, REDACTED);
			changed = true;
		}
	}
	return changed ? url.toString() : value;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Text with every URL in it passed through `redactUrl` (a prompt that quotes `https://user:pw@host`). */
export function redactText(text: string): string {
	return text.includes("://") ? text.replace(URL_IN_TEXT, (url) => redactUrl(url)) : text;
}

/** A deep copy of a JSON value with secrets replaced. */
export function redactJson<T>(value: T): T {
	if (value === undefined) return value;
	return JSON.parse(
		JSON.stringify(value, (key, child: unknown) => {
			if (key !== "" && child !== null && child !== undefined && isSecretKey(key)) return REDACTED;
			return typeof child === "string" ? redactText(redactUrl(child)) : child;
		}),
	) as T;
}

/** Settings as the report carries them: redacted, without the tracking id. */
export function redactSettings(settings: Record<string, unknown>): Record<string, unknown> {
	const { trackingId: _trackingId, ...rest } = settings;
	return redactJson(rest);
}
