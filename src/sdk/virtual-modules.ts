/**
 * THE static table of modules that extensions import from the host. Every specifier resolves to a module bundled
 * into the binary, so an extension needs no node_modules for these, and the host copy wins over an extension's
 * own. Both package scopes map to the same modules: `@mariozechner/` (pi ≤ 0.73) and `@earendil-works/` (0.74+).
 *
 * The specifiers are known without loading anything; the modules themselves are imported the first time an
 * extension is loaded (`loadVirtualModules`), so a run without extensions never initialises the SDK surface
 * (TUI components, typebox's value system, …).
 *
 * `typebox`, `typebox/compile` and `typebox/value` are TypeBox 1.x, as in pi 0.87.1; `@sinclair/typebox*` stay
 * TypeBox 0.34. TypeBox 1.x is heavy to initialise, so its entries are getters: the Bun loader reads an entry when
 * an extension first imports that specifier, and only then is TypeBox 1.x loaded.
 */
import type { VirtualModuleTable } from "../extensions/index.ts";
import { useChalk } from "../resources/index.ts";
import { typebox1 } from "../util/index.ts";

const PI_PACKAGES = [
	"pi-coding-agent",
	"pi-agent-core",
	"pi-tui",
	"pi-ai",
	"pi-ai/oauth",
	"pi-ai/compat",
	"pi-ai/providers/all",
	"pi-ai/models",
] as const;
type PiPackage = (typeof PI_PACKAGES)[number];

const TYPEBOX_SPECIFIERS = [
	"@sinclair/typebox",
	"@sinclair/typebox/compile",
	"@sinclair/typebox/compiler",
	"@sinclair/typebox/value",
] as const;
type TypeboxSpecifier = (typeof TYPEBOX_SPECIFIERS)[number];

/** TypeBox 1.x specifiers (the ones pi 0.87.1 maps) and which part of `typebox1()` each one is. */
const TYPEBOX1_SPECIFIERS = { typebox: "root", "typebox/compile": "compile", "typebox/value": "value" } as const;

const SCOPES = ["@mariozechner/", "@earendil-works/"] as const;

/** Other packages extensions may import with no node_modules: chalk, the colour engine of themes. */
const OTHER_SPECIFIERS = ["chalk"] as const;

/** Every specifier the host provides. */
export const VIRTUAL_SPECIFIERS: readonly string[] = [
	...TYPEBOX_SPECIFIERS,
	...OTHER_SPECIFIERS,
	...Object.keys(TYPEBOX1_SPECIFIERS),
	...SCOPES.flatMap((scope) => PI_PACKAGES.map((name) => scope + name)),
];

/** Package names (not subpaths) pi provides; an extension listing one in `dependencies` gets a warning. */
export const HOST_PACKAGES: ReadonlySet<string> = new Set(
	VIRTUAL_SPECIFIERS.map((specifier) => {
		const parts = specifier.split("/");
		return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
	}),
);

let table: Promise<VirtualModuleTable> | undefined;

/** The specifier → module table, imported on first call. */
export function loadVirtualModules(): Promise<VirtualModuleTable> {
	table ??= importTable();
	return table;
}

async function importTable(): Promise<VirtualModuleTable> {
	const [
		typebox,
		typeboxCompiler,
		typeboxValue,
		typeboxCompile,
		codingAgent,
		agentCore,
		tui,
		ai,
		aiOauth,
		aiCompat,
		aiProvidersAll,
		aiModels,
		chalk,
	] = await Promise.all([
		import("@sinclair/typebox"),
		import("@sinclair/typebox/compiler"),
		import("@sinclair/typebox/value"),
		import("./typebox-compile.ts"),
		import("./pi-coding-agent.ts"),
		import("./pi-agent-core.ts"),
		import("./pi-tui.ts"),
		import("./pi-ai.ts"),
		import("./pi-ai-oauth.ts"),
		import("./pi-ai-compat.ts"),
		import("./pi-ai-providers-all.ts"),
		import("./pi-ai-models.ts"),
		import("chalk"),
	]);
	// The instance extensions import is the one themes style with (NO_COLOR applied once, here).
	useChalk(chalk.default);
	const typeboxModules: Record<TypeboxSpecifier, Readonly<Record<string, unknown>>> = {
		"@sinclair/typebox": typebox,
		"@sinclair/typebox/compile": typeboxCompile,
		"@sinclair/typebox/compiler": typeboxCompiler,
		"@sinclair/typebox/value": typeboxValue,
	};
	const piPackages: Record<PiPackage, Readonly<Record<string, unknown>>> = {
		"pi-coding-agent": codingAgent,
		"pi-agent-core": agentCore,
		"pi-tui": tui,
		"pi-ai": ai,
		"pi-ai/oauth": aiOauth,
		"pi-ai/compat": aiCompat,
		"pi-ai/providers/all": aiProvidersAll,
		"pi-ai/models": aiModels,
	};
	const scoped = SCOPES.flatMap((scope) =>
		PI_PACKAGES.map((name) => [scope + name, piPackages[name]] as [string, Readonly<Record<string, unknown>>]),
	);
	const table: Record<string, Readonly<Record<string, unknown>>> = {
		...typeboxModules,
		chalk,
		...Object.fromEntries(scoped),
	};
	for (const [specifier, part] of Object.entries(TYPEBOX1_SPECIFIERS)) {
		Object.defineProperty(table, specifier, { enumerable: true, get: () => typebox1()[part] });
	}
	return table;
}
