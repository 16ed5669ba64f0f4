/**
 * Photon (`@silvia-odwyer/photon-node`, the Rust/WASM image library pi itself uses): decodes PNG, JPEG, GIF, WebP
 * and BMP, resizes, and encodes PNG and JPEG. Its CommonJS glue reads `photon_rs_bg.wasm` from beside itself, which
 * does not exist next to a compiled binary. So both files are embedded (`with { type: "file" }`: a path inside the
 * binary, or in node_modules when running from source) and the glue runs here against a small `require` that hands
 * it the embedded bytes instead of the disk. Nothing is read or compiled until the first image needs it; a failure
 * to load leaves `null`, and callers fall back as pi does when Photon is unavailable.
 */
import type * as PhotonModule from "@silvia-odwyer/photon-node";
import * as glueFile from "@silvia-odwyer/photon-node/photon_rs.js" with { type: "file" };
import wasmFile from "@silvia-odwyer/photon-node/photon_rs_bg.wasm" with { type: "file" };
import { readFileSync } from "../util/index.ts";

export type Photon = typeof PhotonModule;
export type PhotonImage = PhotonModule.PhotonImage;

/** A file import is its path at run time (the TypeScript types describe the module). */
const embeddedPath = (imported: unknown): string =>
	typeof imported === "string" ? imported : String((imported as { default: unknown }).default);

/** Runs the glue as a CommonJS module whose `fs`, `path` and `util` serve only what it asks for. */
function instantiate(): Photon {
	const source = readFileSync(embeddedPath(glueFile), "utf8");
	const wasmBytes = readFileSync(wasmFile);
	const module = { exports: {} as Record<string, unknown> };
	const builtins: Record<string, unknown> = {
		util: { TextEncoder, TextDecoder },
		path: { join: (...parts: string[]) => parts.join("/") },
		fs: { readFileSync: () => wasmBytes },
	};
	const requireStub = (name: string): unknown => {
		const found = builtins[name];
		if (!found) throw new Error(`photon glue asked for an unexpected module: ${name}`);
		return found;
	};
	const run = new Function("module", "exports", "require", "__dirname", "__filename", source);
	run(module, module.exports, requireStub, "/photon", "/photon/photon_rs.js");
	return module.exports as unknown as Photon;
}

let loading: Promise<Photon | null> | undefined;

/** Photon, compiled on first call; `null` when it cannot be loaded here. */
export function loadPhoton(): Promise<Photon | null> {
	loading ??= Promise.resolve().then(() => {
		try {
			return instantiate();
		} catch {
			return null;
		}
	});
	return loading;
}

/**
 * Forgets the loaded instance, so the next call compiles a fresh one. Called after Photon threw: a Rust panic
 * inside WASM (an undecodable file can cause one) stops the call midway and may leave the instance's memory
 * inconsistent. pi avoids the same risk by running every resize in a new worker.
 */
export function discardPhoton(): void {
	loading = undefined;
}
