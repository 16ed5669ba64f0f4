/**
 * Loading extensions with jiti, for code running from source under Node (SDK use). Virtual modules come from
 * jiti's `virtualModules`; the module cache is off so every load is fresh, and transpiled files go to a private
 * cache dir. jiti is imported lazily: the compiled binary never reaches this file.
 */
import type { ModuleLoader, VirtualModuleTable } from "./types.ts";

export async function createJitiModuleLoader(table: VirtualModuleTable, cacheDir: string): Promise<ModuleLoader> {
	const { createJiti } = await import("jiti/static");
	const make = () =>
		createJiti(import.meta.url, {
			virtualModules: table as Record<string, unknown>,
			moduleCache: false,
			fsCache: cacheDir,
			tryNative: false,
			interopDefault: false,
		});
	let jiti = make();
	return {
		kind: "jiti",
		async load(path) {
			return (await jiti.import(path)) as Record<string, unknown>;
		},
		reset() {
			jiti = make();
		},
	};
}
