/**
 * Loading discovered extensions in order. Each one is isolated: a syntax error, a missing import, a throwing
 * factory or a default export that is not a function yields one diagnostic for that file, and the rest still load.
 */
import { errorMessage, firstLine, readFileSync } from "../util/index.ts";
import { createExtensionApi, type ExtensionApiHandle, type ExtensionApiOptions } from "./api.ts";
import { createBunModuleLoader } from "./bun-loader.ts";
import type { EventBus } from "./event-bus.ts";
import { createJitiModuleLoader } from "./jiti-loader.ts";
import type { ExtensionDiagnostic, ExtensionEntry, ModuleLoader, VirtualModuleTable } from "./types.ts";

export interface LoadedExtensionHandle {
	entry: ExtensionEntry;
	handle: ExtensionApiHandle;
}

export interface LoadResult {
	extensions: LoadedExtensionHandle[];
	diagnostics: ExtensionDiagnostic[];
}

/** Bun's loader when running on Bun (always, in the binary); jiti under Node. */
export async function createModuleLoader(
	table: VirtualModuleTable,
	jitiCacheDir: string,
	prefer?: ModuleLoader["kind"],
): Promise<ModuleLoader> {
	const kind = prefer ?? (typeof Bun === "undefined" ? "jiti" : "bun");
	return kind === "bun" ? createBunModuleLoader(table) : await createJitiModuleLoader(table, jitiCacheDir);
}

export async function loadExtensions(
	entries: ExtensionEntry[],
	moduleLoader: ModuleLoader,
	events: EventBus,
	apiOptions: ExtensionApiOptions = {},
): Promise<LoadResult> {
	const extensions: LoadedExtensionHandle[] = [];
	const diagnostics: ExtensionDiagnostic[] = [];
	for (const entry of entries) {
		const failure = (message: string) => diagnostics.push({ level: "error", path: entry.path, message });
		let namespace: Record<string, unknown>;
		try {
			namespace = await moduleLoader.load(entry.file ?? entry.path);
		} catch (error) {
			failure(`failed to load: ${describeLoadError(error)}`);
			continue;
		}
		const factory = namespace.default;
		if (factory === undefined) {
			failure("has no default export (expected `export default function (pi) { … }`)");
			continue;
		}
		if (typeof factory !== "function") {
			failure(`default export is ${describeValue(factory)}, not a factory function`);
			continue;
		}
		const handle = createExtensionApi(entry.path, events, apiOptions);
		try {
			await factory(handle.api);
		} catch (error) {
			failure(`factory threw: ${firstLine(errorMessage(error))}`);
			continue;
		}
		extensions.push({ entry, handle });
	}
	return { extensions, diagnostics };
}

function describeLoadError(error: unknown): string {
	// Bun reports transpile errors as a BuildMessage (or an AggregateError of them) carrying a `position`, and a
	// missing import as a ResolveMessage carrying the `specifier` and the `referrer` that imported it (no position:
	// the line is that of the specifier in the referrer's text).
	const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
	const position = (first as { position?: { file?: string; line?: number; column?: number } } | null)?.position;
	const where = position?.line
		? ` at line ${position.line}:${(position.column ?? 0) + 1}`
		: importSite(first as { specifier?: unknown; referrer?: unknown } | null);
	return `${firstLine(errorMessage(first))}${where}`;
}

/** ` at line L:C` of a quoted `specifier` in the `referrer` file, or "" when either is unknown or unreadable. */
function importSite(error: { specifier?: unknown; referrer?: unknown } | null): string {
	const { specifier, referrer } = error ?? {};
	if (typeof specifier !== "string" || typeof referrer !== "string") return "";
	let text: string;
	try {
		text = readFileSync(referrer, "utf8");
	} catch {
		return "";
	}
	const at = [`"${specifier}"`, `'${specifier}'`, `\`${specifier}\``]
		.map((quoted) => text.indexOf(quoted))
		.filter((index) => index >= 0)
		.sort((a, b) => a - b)[0];
	if (at === undefined) return "";
	const before = text.slice(0, at);
	const line = before.split("\n").length;
	return ` at line ${line}:${at - before.lastIndexOf("\n")}`;
}

function describeValue(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	const type = typeof value;
	return type === "object" ? "an object" : `a ${type}`;
}
