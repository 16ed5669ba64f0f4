/**
 * Node built-ins that most runs never touch, loaded on first use instead of at start-up. In the compiled binary
 * `node:child_process` and `node:fs/promises` cost several milliseconds each to initialise on a slow machine, and
 * `pi -p hello` or an RPC client asking for state needs neither. `process.getBuiltinModule` (Bun, Node ≥ 20.16)
 * loads a built-in synchronously, so callers stay as they were. The same goes for `node:os`.
 */
type ChildProcessModule = typeof import("node:child_process");
type FsPromisesModule = typeof import("node:fs/promises");
type OsModule = typeof import("node:os");

let childProcessModule: ChildProcessModule | undefined;
let fsPromisesModule: FsPromisesModule | undefined;
let osModule: OsModule | undefined;

export function childProcess(): ChildProcessModule {
	childProcessModule ??= process.getBuiltinModule("node:child_process");
	return childProcessModule;
}

export function fsPromises(): FsPromisesModule {
	fsPromisesModule ??= process.getBuiltinModule("node:fs/promises");
	return fsPromisesModule;
}

/** `node:os`: its initialisation counts the CPUs, which is slow enough under Bun to matter at start-up. */
export function os(): OsModule {
	osModule ??= process.getBuiltinModule("node:os");
	return osModule;
}
