/**
 * The release site `pi update` reads, laid out like a GitHub releases page: `<base>/latest/download/<asset>` and
 * `<base>/download/v<version>/<asset>`, each release holding `manifest.json`, `SHA256SUMS` and one archive per
 * target (what scripts/release.ts writes). Every answer is checked: an HTML page or a cut download is an error.
 */
import { createHash } from "node:crypto";
import { UserError } from "../../util/index.ts";

declare const PI_BUILD_RELEASE_BASE: string | undefined;

export type Fetch = (url: string) => Promise<Response>;

export interface ReleaseManifest {
	version: string;
	targets: Record<string, { file: string; size: number; sha256: string }>;
}

/** `PI_BASE_URL`, else the site this binary was released from. */
export function releaseBase(env: NodeJS.ProcessEnv = process.env): string {
	const base = env.PI_BASE_URL || (typeof PI_BUILD_RELEASE_BASE === "string" ? PI_BUILD_RELEASE_BASE : "");
	if (!base) throw new UserError("pi update: no release site is known for this build: set PI_BASE_URL to one");
	return base.replace(/\/+$/, "");
}

export const releaseUrl = (base: string, version: string | "latest", asset: string): string =>
	version === "latest" ? `${base}/latest/download/${asset}` : `${base}/download/v${version}/${asset}`;

async function get(fetchFn: Fetch, url: string): Promise<Uint8Array> {
	let response: Response;
	try {
		response = await fetchFn(url);
	} catch (error) {
		throw new UserError(`pi update: cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (!response.ok) throw new UserError(`pi update: ${url} answered ${response.status}`);
	return new Uint8Array(await response.arrayBuffer());
}

const looksLikeHtml = (bytes: Uint8Array) =>
	/^\s*<(!doctype|html)/i.test(new TextDecoder().decode(bytes.subarray(0, 256)));

/** The manifest of a release (`latest` or a version). */
export async function fetchManifest(
	fetchFn: Fetch,
	base: string,
	version: string | "latest",
): Promise<ReleaseManifest> {
	const url = releaseUrl(base, version, "manifest.json");
	const bytes = await get(fetchFn, url);
	if (looksLikeHtml(bytes)) throw new UserError(`pi update: ${url} is an HTML page, not a release manifest`);
	let manifest: ReleaseManifest;
	try {
		manifest = JSON.parse(new TextDecoder().decode(bytes)) as ReleaseManifest;
	} catch {
		throw new UserError(`pi update: ${url} is not valid JSON`);
	}
	if (typeof manifest?.version !== "string" || typeof manifest.targets !== "object" || manifest.targets === null) {
		throw new UserError(`pi update: ${url} has no version or targets`);
	}
	return manifest;
}

/** The archive of `target` in release `version`, checked against the release's SHA256SUMS (fail closed). */
export async function fetchVerifiedArchive(
	fetchFn: Fetch,
	base: string,
	version: string,
	asset: string,
): Promise<Uint8Array> {
	const sumsUrl = releaseUrl(base, version, "SHA256SUMS");
	const sums = await get(fetchFn, sumsUrl);
	if (looksLikeHtml(sums)) throw new UserError(`pi update: ${sumsUrl} is an HTML page, not a checksum list`);
	const line = new TextDecoder()
		.decode(sums)
		.split("\n")
		.map((l) => l.trim().split(/\s+\*?/))
		.find(([, name]) => name === asset);
	const expected = line?.[0];
	if (!expected || !/^[0-9a-f]{64}$/.test(expected)) {
		throw new UserError(`pi update: SHA256SUMS of ${version} lists no ${asset}`);
	}
	const archive = await get(fetchFn, releaseUrl(base, version, asset));
	const actual = createHash("sha256").update(archive).digest("hex");
	if (actual !== expected) {
		throw new UserError(
			`pi update: checksum mismatch for ${asset} (expected ${expected}, got ${actual}): nothing was replaced`,
		);
	}
	return archive;
}
