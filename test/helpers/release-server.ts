/**
 * A loopback stand-in for a release site, laid out like a GitHub releases page (`/latest/download/<asset>`,
 * `/download/v<version>/<asset>`), serving releases a test builds: one small stand-in binary per target (a shell
 * script that answers `--version` and otherwise prints its target), archived as the release script archives (a zip
 * holding pi.exe for Windows), with SHA256SUMS. A test can break any asset (`corrupt`, `truncate`, `html`).
 */
import { createHash } from "node:crypto";
import { tarGz, zip } from "../../scripts/release/archive.ts";
import { archiveName, executableName, TARGETS } from "../../scripts/release/targets.ts";

export interface ReleaseSite {
	url: string;
	/** Adds a release; the last one added is `latest`. */
	publish(version: string): void;
	/** Replaces the body served for `<version>/<asset>` (the checksum list stays as published). */
	tamper(version: string, asset: string, how: "corrupt" | "truncate" | "html"): void;
	requests: string[];
	stop(): void;
}

/** The stand-in binary of a target: `--version` prints the version; anything else prints the target. */
export function standInBinary(version: string, target: string): Uint8Array {
	const script = `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; else echo ${target}; fi\n`;
	return new TextEncoder().encode(script);
}

export function startReleaseSite(): ReleaseSite {
	const releases = new Map<string, Map<string, Uint8Array>>();
	let latest: string | undefined;
	const requests: string[] = [];
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		fetch(request) {
			const path = new URL(request.url).pathname;
			requests.push(path);
			const match = /^\/(?:latest\/download|download\/v([^/]+))\/([^/]+)$/.exec(path);
			const version = match ? (match[1] ?? latest) : undefined;
			const body = version ? releases.get(version)?.get(match?.[2] ?? "") : undefined;
			if (!body) return new Response("<html><body>Not Found</body></html>", { status: 404 });
			return new Response(body as Uint8Array<ArrayBuffer>);
		},
	});
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		publish(version) {
			const assets = new Map<string, Uint8Array>();
			const sums: string[] = [];
			for (const target of TARGETS) {
				const name = archiveName(target);
				const entries = [{ name: executableName(target), data: standInBinary(version, target.name), mode: 0o755 }];
				const archive = target.os === "windows" ? zip(entries, 1_700_000_000) : tarGz(entries, 1_700_000_000);
				assets.set(name, archive);
				sums.push(`${createHash("sha256").update(archive).digest("hex")}  ${name}\n`);
			}
			assets.set("SHA256SUMS", new TextEncoder().encode(sums.join("")));
			const targets: Record<string, { file: string; size: number; sha256: string }> = {};
			for (const target of TARGETS) {
				const file = archiveName(target);
				const body = assets.get(file);
				if (body)
					targets[target.name] = { file, size: body.length, sha256: createHash("sha256").update(body).digest("hex") };
			}
			assets.set("manifest.json", new TextEncoder().encode(JSON.stringify({ version, targets })));
			releases.set(version, assets);
			latest = version;
		},
		tamper(version, asset, how) {
			const assets = releases.get(version);
			const body = assets?.get(asset);
			if (!assets || !body) throw new Error(`no ${asset} in release ${version}`);
			if (how === "corrupt") {
				const copy = new Uint8Array(body);
				copy[copy.length - 10] = (copy[copy.length - 10] ?? 0) ^ 0xff;
				assets.set(asset, copy);
			} else if (how === "truncate") assets.set(asset, body.subarray(0, Math.floor(body.length / 2)));
			else assets.set(asset, new TextEncoder().encode("<!doctype html><html><body>Sign in</body></html>"));
		},
		stop: () => server.stop(true),
	};
}
