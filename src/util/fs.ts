/**
 * The synchronous `node:fs` functions pi uses, reached through the built-in module object. Under Bun, an ESM
 * `import { … } from "node:fs"` builds the module's whole namespace, and that runs its lazy getters: `WriteStream`
 * alone loads Node's stream classes and `util.inspect`, several milliseconds of every start on a slow machine for
 * things pi never uses. `process.getBuiltinModule` (Bun, Node ≥ 20.16) hands over the module object as it is, and
 * it is fetched on the first call, so `pi --version` never loads it. Import these from util rather than from
 * "node:fs"; types still come from "node:fs".
 */
type FsModule = typeof import("node:fs");

let module: FsModule | undefined;

/** The `node:fs` module object itself, for hot loops where the wrappers below would add a call per use. */
export const nodeFs = (): FsModule => {
	module ??= process.getBuiltinModule("node:fs");
	return module;
};

function lazy<K extends keyof FsModule>(name: K): FsModule[K] {
	return ((...args: unknown[]) => (nodeFs()[name] as (...a: unknown[]) => unknown)(...args)) as FsModule[K];
}

/** `fs.constants` (open flags, access modes). */
export const fsConstants = (): FsModule["constants"] => nodeFs().constants;

export const accessSync = lazy("accessSync");
export const closeSync = lazy("closeSync");
export const copyFileSync = lazy("copyFileSync");
export const existsSync = lazy("existsSync");
export const fchmodSync = lazy("fchmodSync");
export const fstatSync = lazy("fstatSync");
export const fsyncSync = lazy("fsyncSync");
export const ftruncateSync = lazy("ftruncateSync");
export const linkSync = lazy("linkSync");
export const mkdirSync = lazy("mkdirSync");
export const openSync = lazy("openSync");
export const readdirSync = lazy("readdirSync");
export const readFileSync = lazy("readFileSync");
export const readSync = lazy("readSync");
export const realpathSync = lazy("realpathSync");
export const renameSync = lazy("renameSync");
export const rmdirSync = lazy("rmdirSync");
export const rmSync = lazy("rmSync");
export const statSync = lazy("statSync");
export const unlinkSync = lazy("unlinkSync");
export const utimesSync = lazy("utimesSync");
export const writeFileSync = lazy("writeFileSync");
export const writeSync = lazy("writeSync");
