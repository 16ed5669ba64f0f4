/**
 * A loaded extension in pi's SDK shape (`Extension` of `LoadExtensionsResult`): handlers, tools (`{ definition,
 * sourceInfo }`), commands (`{ name, sourceInfo, ...options }`), flags and shortcuts (with `extensionPath`),
 * message and entry renderers, the markdown transformer. The maps are live views of the extension's own
 * registrations, so what it registers later (from a handler or command) shows up, as in pi.
 */
import { dirname } from "node:path";
import type { ExtensionApiHandle, ExtensionScope } from "../extensions/index.ts";

export interface SdkSourceInfo {
	path: string;
	source: string;
	scope: string;
	origin: string;
	baseDir?: string;
}

export interface SdkExtension {
	path: string;
	resolvedPath: string;
	sourceInfo: SdkSourceInfo;
	handlers: Map<string, ((...args: any[]) => unknown)[]>;
	tools: Map<string, { definition: any; sourceInfo: SdkSourceInfo }>;
	commands: Map<string, { name: string; sourceInfo: SdkSourceInfo; handler: (...args: any[]) => unknown }>;
	flags: Map<string, { name: string; type: "boolean" | "string"; default?: boolean | string; extensionPath: string }>;
	shortcuts: Map<string, { shortcut: string; extensionPath: string; handler: (...args: any[]) => unknown }>;
	messageRenderers: Map<string, any>;
	entryRenderers?: Map<string, any>;
	markdownTransformer?: any;
}

/**
 * A read view over `source` whose values are `convert`ed on the way out (each source value converted once, so
 * the same registration always gives the same object). Writes go to an overlay the view also reads.
 */
class LiveMap<K, S, V> extends Map<K, V> {
	private readonly converted = new WeakMap<object, V>();
	constructor(
		private readonly source: ReadonlyMap<K, S>,
		private readonly convert: (key: K, value: S) => V,
	) {
		super();
	}
	private view(key: K, value: S): V {
		if (typeof value !== "object" || value === null) return this.convert(key, value);
		let out = this.converted.get(value);
		if (out === undefined) {
			out = this.convert(key, value);
			this.converted.set(value, out);
		}
		return out;
	}
	override get(key: K): V | undefined {
		if (super.has(key)) return super.get(key);
		const value = this.source.get(key);
		return value === undefined ? undefined : this.view(key, value);
	}
	override has(key: K): boolean {
		return super.has(key) || this.source.has(key);
	}
	override get size(): number {
		return [...this.keys()].length;
	}
	override *keys(): MapIterator<K> {
		for (const [key] of this.entries()) yield key;
	}
	override *values(): MapIterator<V> {
		for (const [, value] of this.entries()) yield value;
	}
	override *entries(): MapIterator<[K, V]> {
		for (const [key, value] of this.source) yield [key, super.has(key) ? (super.get(key) as V) : this.view(key, value)];
		for (const [key, value] of super.entries()) if (!this.source.has(key)) yield [key, value];
	}
	override [Symbol.iterator](): MapIterator<[K, V]> {
		return this.entries();
	}
	override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
		for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
	}
}

const SOURCE: Record<ExtensionScope | "inline", { source: string; scope: string }> = {
	global: { source: "auto", scope: "user" },
	project: { source: "auto", scope: "project" },
	settings: { source: "local", scope: "user" },
	cli: { source: "cli", scope: "temporary" },
	inline: { source: "inline", scope: "temporary" },
};

/**
 * Where an extension came from. `loader`: as pi's extension loader describes a file it was given ("local",
 * temporary, with its folder), which `discoverAndLoadExtensions` reports; otherwise as the resource loader
 * describes its discovery scopes.
 */
export function sourceInfoOf(path: string, scope: ExtensionScope | "inline", loader: boolean): SdkSourceInfo {
	if (loader && scope !== "inline") {
		return { path, source: "local", scope: "temporary", origin: "top-level", baseDir: dirname(path) };
	}
	return { path, ...SOURCE[scope], origin: "top-level" };
}

export function toSdkExtension(path: string, sourceInfo: SdkSourceInfo, handle: ExtensionApiHandle): SdkExtension {
	const r = handle.registrations;
	return {
		path,
		resolvedPath: path,
		sourceInfo,
		handlers: r.handlers as SdkExtension["handlers"],
		tools: new LiveMap(r.tools, (_name, definition) => ({ definition, sourceInfo })),
		commands: new LiveMap(r.commands, (name, command) => ({ name, sourceInfo, ...command })),
		flags: new LiveMap(r.flags, (name, flag) => ({ name, extensionPath: path, ...flag })),
		shortcuts: new LiveMap(r.shortcuts, (shortcut, options) => ({ shortcut, extensionPath: path, ...options })),
		messageRenderers: r.messageRenderers,
		entryRenderers: r.entryRenderers,
		// pi keeps one transformer per extension: the last registered.
		get markdownTransformer() {
			return r.markdownTransformers[r.markdownTransformers.length - 1];
		},
	};
}
