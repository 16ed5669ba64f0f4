/**
 * A loopback npm registry for tests and benches: `Bun.serve` on 127.0.0.1 (a free port) serving real packuments
 * (`GET /<name>`, `GET /@scope%2fname`; the abbreviated form for `Accept: application/vnd.npm.install-v1+json`) and
 * real `.tgz` tarballs built in memory. It can refuse a tarball's integrity, require a bearer token, and go down.
 * `registryEnv` points Bun's package manager (`bun install`, `BUN_BE_BUN=1 <binary> install`) and npm at it, with
 * private caches under the given HOME. The server is unref'd: it never keeps a test process alive.
 * It answers on the event loop of the process that started it: run clients with `Bun.spawn` and await them — a
 * `Bun.spawnSync` client of the same process blocks the loop and hangs forever.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { distOf, packTgz } from "./npm-tarball.ts";

export interface FakePackage {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	scripts?: Record<string, string>;
	/** Files of the package (relative path → content); a `package.json` here replaces the generated one. */
	files?: Record<string, string>;
	/** The `pi` manifest of package.json (`extensions`, `skills`, `prompts`, `themes`). */
	pi?: Record<string, string[]>;
	/** dist-tags pointing at this version (`latest` defaults to the highest release version). */
	tags?: Record<string, string>;
}

export interface FakeRegistry {
	/** `http://127.0.0.1:<port>/` */
	url: string;
	/** Every request as `<METHOD> <decoded path>`, e.g. `GET /@scope/name`, `GET /left-pad/-/left-pad-1.0.0.tgz`. */
	requests: string[];
	add(pkg: FakePackage): void;
	/** From now on the tarball of `name@version` is served with other bytes than its packument's integrity says. */
	corruptIntegrity(name: string, version: string): void;
	/** From now on every request needs `Authorization: Bearer <token>` (401 otherwise); undefined lifts it. */
	requireToken(token: string | undefined): void;
	/** Down: connections are refused (`how: "refused"`, the default) or answered 503 (`how: "503"`). */
	setDown(down: boolean, how?: "refused" | "503"): void;
	/** The `.tgz` bytes served for `name@version` (as a client would download them). */
	tarball(name: string, version: string): Uint8Array;
	stop(): void;
}

interface Version {
	pkg: FakePackage;
	manifest: Record<string, unknown>;
	tgz: Uint8Array;
	integrity: string;
	shasum: string;
	corrupt?: Uint8Array;
}

const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"];

function manifestOf(pkg: FakePackage): Record<string, unknown> {
	const given = pkg.files?.["package.json"];
	if (given !== undefined) return JSON.parse(given) as Record<string, unknown>;
	return {
		name: pkg.name,
		version: pkg.version,
		...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}),
		...(pkg.peerDependencies ? { peerDependencies: pkg.peerDependencies } : {}),
		...(pkg.scripts ? { scripts: pkg.scripts } : {}),
		...(pkg.pi ? { pi: pkg.pi } : {}),
	};
}

function buildVersion(pkg: FakePackage): Version {
	const manifest = manifestOf(pkg);
	const files: Record<string, string> = { ...pkg.files };
	if (files["package.json"] === undefined) files["package.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
	const tgz = packTgz(files);
	return { pkg, manifest, tgz, ...distOf(tgz) };
}

/** `@scope/name` → `name` (the tarball file's stem). */
const bareName = (name: string) => name.slice(name.lastIndexOf("/") + 1);

function highestRelease(versions: string[]): string | undefined {
	const releases = versions.filter((v) => !v.includes("-"));
	const pool = releases.length > 0 ? releases : versions;
	return [...pool].sort((a, b) => Bun.semver.order(a, b)).at(-1);
}

export async function startRegistry(packages: FakePackage[] = []): Promise<FakeRegistry> {
	const store = new Map<string, Map<string, Version>>();
	const tags = new Map<string, Record<string, string>>();
	let token: string | undefined;
	let down: false | "refused" | "503" = false;
	const requests: string[] = [];

	const tarballUrl = (name: string, version: string) => `${url}${name}/-/${bareName(name)}-${version}.tgz`;

	function packument(name: string, abbreviated: boolean): Record<string, unknown> | undefined {
		const versions = store.get(name);
		if (!versions) return undefined;
		const distTags: Record<string, string> = {};
		const latest = highestRelease([...versions.keys()]);
		if (latest) distTags.latest = latest;
		Object.assign(distTags, tags.get(name));
		const docs: Record<string, unknown> = {};
		const time: Record<string, string> = { created: "2020-01-01T00:00:00.000Z", modified: "2020-01-01T00:00:00.000Z" };
		for (const [version, entry] of versions) {
			const dist = { tarball: tarballUrl(name, version), integrity: entry.integrity, shasum: entry.shasum };
			const scripts = (entry.manifest.scripts ?? {}) as Record<string, string>;
			const hasInstallScript = INSTALL_SCRIPTS.some((s) => s in scripts);
			const { scripts: _s, pi: _p, ...installFields } = entry.manifest;
			docs[version] = abbreviated
				? { ...installFields, name, version, ...(hasInstallScript ? { hasInstallScript } : {}), dist }
				: { ...entry.manifest, name, version, _id: `${name}@${version}`, dist };
			time[version] = "2020-01-01T00:00:00.000Z";
		}
		return abbreviated
			? { name, "dist-tags": distTags, modified: time.modified, versions: docs }
			: { _id: name, name, "dist-tags": distTags, versions: docs, time };
	}

	function tarballFor(name: string, file: string): Uint8Array | undefined {
		const versions = store.get(name);
		const prefix = `${bareName(name)}-`;
		if (!versions || !file.startsWith(prefix) || !file.endsWith(".tgz")) return undefined;
		const entry = versions.get(file.slice(prefix.length, -".tgz".length));
		return entry && (entry.corrupt ?? entry.tgz);
	}

	const json = (status: number, body: unknown) =>
		new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

	function handle(req: Request): Response {
		const path = decodeURIComponent(new URL(req.url).pathname);
		requests.push(`${req.method} ${path}`);
		if (down === "503") return new Response("Service Unavailable", { status: 503 });
		if (token !== undefined && req.headers.get("authorization") !== `Bearer ${token}`) {
			return json(401, { error: "Unable to authenticate, need: Bearer" });
		}
		if (req.method !== "GET" && req.method !== "HEAD") return json(405, { error: "method not allowed" });
		const tgz = /^\/((?:@[^/]+\/)?[^/@]+)\/-\/([^/]+)$/.exec(path);
		if (tgz) {
			const bytes = tarballFor(tgz[1] as string, tgz[2] as string);
			if (!bytes) return json(404, { error: "Not found" });
			return new Response(bytes as Uint8Array<ArrayBuffer>, {
				headers: { "content-type": "application/octet-stream" },
			});
		}
		const name = path.slice(1);
		const abbreviated = (req.headers.get("accept") ?? "").includes("application/vnd.npm.install-v1+json");
		const doc = packument(name, abbreviated);
		if (!doc) return json(404, { error: "Not found" });
		return new Response(JSON.stringify(doc), {
			headers: { "content-type": abbreviated ? "application/vnd.npm.install-v1+json" : "application/json" },
		});
	}

	let server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle });
	server.unref();
	const port = server.port;
	const url = `http://127.0.0.1:${port}/`;

	const registry: FakeRegistry = {
		url,
		requests,
		add(pkg) {
			let versions = store.get(pkg.name);
			if (!versions) {
				versions = new Map();
				store.set(pkg.name, versions);
			}
			versions.set(pkg.version, buildVersion(pkg));
			if (pkg.tags) tags.set(pkg.name, { ...tags.get(pkg.name), ...pkg.tags });
		},
		corruptIntegrity(name, version) {
			const entry = store.get(name)?.get(version);
			if (!entry) throw new Error(`corruptIntegrity: ${name}@${version} is not in the registry`);
			entry.corrupt = packTgz({
				"package.json": `${JSON.stringify(entry.manifest, null, 2)}\n`,
				"TAMPERED.txt": "these bytes are not the ones the packument's integrity describes\n",
			});
		},
		requireToken(value) {
			token = value;
		},
		setDown(value, how = "refused") {
			const wanted = value ? how : false;
			if (wanted === down) return;
			if (down === "refused") {
				server = Bun.serve({ hostname: "127.0.0.1", port, fetch: handle });
				server.unref();
			}
			if (wanted === "refused") server.stop(true);
			down = wanted;
		},
		tarball(name, version) {
			const entry = store.get(name)?.get(version);
			if (!entry) throw new Error(`tarball: ${name}@${version} is not in the registry`);
			return entry.corrupt ?? entry.tgz;
		},
		stop() {
			server.stop(true);
		},
	};
	for (const pkg of packages) registry.add(pkg);
	return registry;
}

/**
 * Environment for a child (pi, `bun install`, `BUN_BE_BUN=1 <binary> install`, npm) that uses `reg` as its only
 * registry, with a private Bun cache (`<home>/.bun/install/cache`), npm cache (`<home>/.npm`) and config under `home`.
 * Merge it over the parent's environment; it keeps loopback traffic off any proxy.
 */
export function registryEnv(reg: FakeRegistry, home: string): Record<string, string> {
	const bunCache = join(home, ".bun", "install", "cache");
	const npmCache = join(home, ".npm");
	mkdirSync(bunCache, { recursive: true });
	mkdirSync(npmCache, { recursive: true });
	return {
		HOME: home,
		USERPROFILE: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_CACHE_HOME: join(home, ".cache"),
		BUN_INSTALL: join(home, ".bun"),
		BUN_INSTALL_CACHE_DIR: bunCache,
		BUN_CONFIG_REGISTRY: reg.url,
		NPM_CONFIG_REGISTRY: reg.url,
		npm_config_registry: reg.url,
		npm_config_cache: npmCache,
		npm_config_userconfig: join(home, ".npmrc"),
		npm_config_globalconfig: join(home, ".npmrc-global"),
		npm_config_audit: "false",
		npm_config_fund: "false",
		npm_config_update_notifier: "false",
		npm_config_loglevel: "error",
		NO_PROXY: "127.0.0.1,localhost",
		no_proxy: "127.0.0.1,localhost",
	};
}

/** The `.npmrc` line that gives `token` for `reg` (write it to `<home>/.npmrc` or a project's `.npmrc`). */
export function npmrcTokenLine(reg: FakeRegistry, token: string): string {
	return `//${reg.url.replace(/^https?:\/\//, "")}:_authToken=${token}\n`;
}
