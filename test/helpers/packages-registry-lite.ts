/**
 * A small loopback npm registry for the installer's tests, with the interface of `test/support/npm-registry.ts`
 * (helper D's full one): real packuments (`dist.tarball`, sha512 `integrity`, `shasum`, `dist-tags`) and real
 * gzip'd tar tarballs built in memory (files under `package/`).
 */
import { join } from "node:path";

export interface FakePackage {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	scripts?: Record<string, string>;
	files?: Record<string, string>;
	pi?: Record<string, string[]>;
	tags?: Record<string, string>;
}

export interface FakeRegistry {
	url: string;
	requests: string[];
	add(pkg: FakePackage): void;
	corruptIntegrity(name: string, version: string): void;
	requireToken(token: string): void;
	setDown(down: boolean): void;
	stop(): void;
}

/** A ustar archive of `files` (paths < 100 bytes), gzip'd. */
export function tgz(files: Record<string, string>): Uint8Array {
	const blocks: Uint8Array[] = [];
	const enc = new TextEncoder();
	for (const [path, content] of Object.entries(files)) {
		const body = enc.encode(content);
		const header = new Uint8Array(512);
		const put = (text: string, offset: number) => header.set(enc.encode(text), offset);
		put(path, 0);
		put("0000644\0", 100);
		put("0000000\0", 108);
		put("0000000\0", 116);
		put(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
		put("14000000000\0", 136);
		put("        ", 148);
		put("0", 156);
		put("ustar\0", 257);
		put("00", 263);
		const sum = header.reduce((a, b) => a + b, 0);
		put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
		blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
	}
	blocks.push(new Uint8Array(1024));
	return Bun.gzipSync(Buffer.concat(blocks));
}

const sri = (bytes: Uint8Array) => `sha512-${new Bun.CryptoHasher("sha512").update(bytes).digest("base64")}`;

export async function startRegistry(packages: FakePackage[] = []): Promise<FakeRegistry> {
	const tarballs = new Map<string, Uint8Array>();
	const docs = new Map<string, { versions: Record<string, Record<string, unknown>>; tags: Record<string, string> }>();
	const corrupt = new Set<string>();
	let token: string | undefined;
	let down = false;
	const requests: string[] = [];
	const server = Bun.serve({
		port: 0,
		hostname: "127.0.0.1",
		fetch(req) {
			const path = decodeURIComponent(new URL(req.url).pathname.slice(1));
			requests.push(`${req.method} /${path}`);
			if (down) return new Response("unavailable", { status: 503 });
			if (token && req.headers.get("authorization") !== `Bearer ${token}`) return new Response("{}", { status: 401 });
			const tar = tarballs.get(path);
			if (tar) return new Response(tar);
			const doc = docs.get(path);
			if (!doc) return Response.json({ error: "not found" }, { status: 404 });
			const versions: Record<string, unknown> = {};
			for (const [v, meta] of Object.entries(doc.versions)) {
				const dist = meta.dist as Record<string, string>;
				versions[v] = corrupt.has(`${path}@${v}`)
					? { ...meta, dist: { ...dist, integrity: sri(new Uint8Array([1])), shasum: "0".repeat(40) } }
					: meta;
			}
			const latest = Object.keys(doc.versions).sort((a, b) => Bun.semver.order(b, a))[0] as string;
			return Response.json({ name: path, versions, "dist-tags": { latest, ...doc.tags } });
		},
	});
	server.unref();
	const url = `http://127.0.0.1:${server.port}/`;
	const registry: FakeRegistry = {
		url,
		requests,
		add(pkg) {
			const { files = {}, tags = {}, ...meta } = pkg;
			const manifest = { ...meta, ...(pkg.pi ? { pi: pkg.pi } : {}) };
			const tar = tgz({
				"package/package.json": JSON.stringify(manifest, null, 2),
				"package/index.js": "export default function () {}\n",
				...Object.fromEntries(Object.entries(files).map(([k, v]) => [`package/${k}`, v])),
			});
			const file = `${pkg.name}/-/${pkg.name.split("/").pop()}-${pkg.version}.tgz`;
			tarballs.set(file, tar);
			const doc = docs.get(pkg.name) ?? { versions: {}, tags: {} };
			doc.versions[pkg.version] = {
				...manifest,
				dist: {
					tarball: `${url}${file}`,
					integrity: sri(tar),
					shasum: new Bun.CryptoHasher("sha1").update(tar).digest("hex"),
				},
			};
			Object.assign(doc.tags, tags);
			docs.set(pkg.name, doc);
		},
		corruptIntegrity: (name, version) => void corrupt.add(`${name}@${version}`),
		requireToken(t) {
			token = t;
		},
		setDown(d) {
			down = d;
		},
		stop: () => server.stop(true),
	};
	for (const pkg of packages) registry.add(pkg);
	return registry;
}

/** Environment for an install child: this registry, a private Bun cache, a private HOME. */
export function registryEnv(reg: FakeRegistry, home: string): Record<string, string> {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		NPM_CONFIG_REGISTRY: reg.url,
		BUN_INSTALL_CACHE_DIR: join(home, ".bun-cache"),
		NO_PROXY: "127.0.0.1,localhost",
	};
}
