/**
 * Loading extensions with Bun's own loader (the compiled binary, or `bun` from source).
 *
 * A runtime plugin registers every virtual module once per process; an extension's import of a host package
 * resolves to the bundled module before any `node_modules` lookup, so the host copy always wins. TypeScript,
 * `.js` → `.ts` specifiers, `require` inside ESM, `import.meta.url` and an extension's own `node_modules` are
 * Bun's native behaviour. `reset` drops every module loaded after the host started, so `/reload` re-imports
 * extension files and their local imports.
 */
import type { ModuleLoader, VirtualModuleTable } from "./types.ts";

/** Specifier → the table that provides it. The namespace is read when an extension first imports the specifier,
 * so a table entry may be a getter that loads its module on demand (TypeBox 1.x for `typebox`). */
const registered = new Map<string, VirtualModuleTable>();

function registerVirtualModules(table: VirtualModuleTable): void {
	const fresh = Object.keys(table).filter((specifier) => !registered.has(specifier));
	for (const specifier of Object.keys(table)) registered.set(specifier, table);
	if (fresh.length === 0) return;
	Bun.plugin({
		name: "pi-virtual-modules",
		setup(build) {
			for (const specifier of fresh) {
				build.module(specifier, () => ({
					exports: (registered.get(specifier) as VirtualModuleTable)[specifier] as Record<string, unknown>,
					loader: "object",
				}));
			}
		},
	});
}

export function createBunModuleLoader(table: VirtualModuleTable): ModuleLoader {
	registerVirtualModules(table);
	const hostModules = new Set(Object.keys(require.cache));
	return {
		kind: "bun",
		async load(path) {
			return (await import(path)) as Record<string, unknown>;
		},
		reset() {
			for (const key of Object.keys(require.cache)) {
				if (!hostModules.has(key)) delete require.cache[key];
			}
		},
	};
}
