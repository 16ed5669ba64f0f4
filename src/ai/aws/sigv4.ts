/**
 * AWS Signature Version 4 (header form) with Web Crypto only, for the Bedrock provider. Signs what the AWS SDK
 * signs for a JSON request: every header except the ones proxies rewrite, plus `host`, `x-amz-date`, the session
 * token when there is one, and (unless turned off) `x-amz-content-sha256`. The path is normalised and escaped a
 * second time, as the SDK does for every service but S3.
 */

export interface AwsCredentials {
	accessKeyId: string;
	secretAccessKey: string;
	sessionToken?: string;
}

export interface SignRequestInput {
	method: string;
	/** The URL as it will be sent (path already percent-encoded once). */
	url: string;
	headers: Record<string, string>;
	body: string | Uint8Array;
	region: string;
	service: string;
	credentials: AwsCredentials;
	/** Signing time; defaults to now. */
	date?: Date;
	/** Add and sign `x-amz-content-sha256` (the SDK's default); the published test suite leaves it out. */
	contentSha256?: boolean;
}

/** Headers never signed: hop-by-hop or rewritten on the way (the SDK's list), plus `proxy-*` and `sec-*`. */
const UNSIGNED = new Set([
	"authorization",
	"cache-control",
	"connection",
	"expect",
	"from",
	"keep-alive",
	"max-forwards",
	"pragma",
	"referer",
	"te",
	"trailer",
	"transfer-encoding",
	"upgrade",
	"user-agent",
	"x-amzn-trace-id",
]);

const encoder = new TextEncoder();

function bytes(value: string | Uint8Array): Uint8Array<ArrayBuffer> {
	return (typeof value === "string" ? encoder.encode(value) : new Uint8Array(value)) as Uint8Array<ArrayBuffer>;
}

function hex(buffer: ArrayBuffer): string {
	let out = "";
	for (const b of new Uint8Array(buffer)) out += b.toString(16).padStart(2, "0");
	return out;
}

export async function sha256Hex(value: string | Uint8Array): Promise<string> {
	return hex(await crypto.subtle.digest("SHA-256", bytes(value)));
}

async function hmac(key: Uint8Array | ArrayBuffer, data: string): Promise<ArrayBuffer> {
	const raw = key instanceof Uint8Array ? bytes(key) : key;
	const k = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
	return crypto.subtle.sign("HMAC", k, encoder.encode(data));
}

/** RFC 3986 escaping: everything but unreserved characters. */
function uriEscape(value: string): string {
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalPath(path: string): string {
	const segments: string[] = [];
	for (const segment of path.split("/")) {
		if (segment === "" || segment === ".") continue;
		if (segment === "..") segments.pop();
		else segments.push(segment);
	}
	const trailing = segments.length > 0 && path.endsWith("/") ? "/" : "";
	const normalised = `${path.startsWith("/") ? "/" : ""}${segments.join("/")}${trailing}`;
	return uriEscape(normalised).replace(/%2F/g, "/");
}

function canonicalQuery(search: URLSearchParams): string {
	const pairs: [string, string][] = [];
	for (const [key, value] of search) {
		if (key.toLowerCase() === "x-amz-signature") continue;
		pairs.push([uriEscape(key), uriEscape(value)]);
	}
	pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
	return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

function amzDate(date: Date): string {
	return date
		.toISOString()
		.replace(/[-:]/g, "")
		.replace(/\.\d{3}/, "");
}

/**
 * Returns the request's headers with `host`, `x-amz-date`, `x-amz-security-token` (when the credentials carry
 * one), `x-amz-content-sha256` (unless turned off) and `authorization` added. Header names come back lower-case.
 */
export async function signRequest(input: SignRequestInput): Promise<Record<string, string>> {
	const url = new URL(input.url);
	const stamp = amzDate(input.date ?? new Date());
	const day = stamp.slice(0, 8);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
	headers.host ??= url.host;
	headers["x-amz-date"] = stamp;
	if (input.credentials.sessionToken) headers["x-amz-security-token"] = input.credentials.sessionToken;
	const payloadHash = headers["x-amz-content-sha256"] ?? (await sha256Hex(input.body));
	if (input.contentSha256 !== false) headers["x-amz-content-sha256"] = payloadHash;

	const signed = Object.keys(headers)
		.filter((name) => !UNSIGNED.has(name) && !name.startsWith("proxy-") && !name.startsWith("sec-"))
		.sort();
	const canonicalHeaders = signed.map((name) => `${name}:${headers[name]?.trim().replace(/\s+/g, " ")}\n`).join("");
	const signedHeaders = signed.join(";");
	const canonicalRequest = [
		input.method.toUpperCase(),
		canonicalPath(url.pathname),
		canonicalQuery(url.searchParams),
		canonicalHeaders,
		signedHeaders,
		payloadHash,
	].join("\n");
	const scope = `${day}/${input.region}/${input.service}/aws4_request`;
	const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, await sha256Hex(canonicalRequest)].join("\n");

	let key = await hmac(encoder.encode(`AWS4${input.credentials.secretAccessKey}`), day);
	key = await hmac(key, input.region);
	key = await hmac(key, input.service);
	key = await hmac(key, "aws4_request");
	const signature = hex(await hmac(key, stringToSign));
	headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
	return headers;
}
