/**
 * Refreshes the built-in model catalogue (src/ai/models/catalog/<provider>.json, one file per provider, and the
 * table of them in src/ai/models/catalog.generated.ts) from the model data published in the @earendil-works/pi-ai
 * npm package. Keeps the models whose `api` we implement, reduces each to the fields of our `Model` type and writes
 * providers and ids in sorted order, so a refresh gives a readable diff. The binary embeds the files and reads a
 * provider's file the first time its models are asked for: a run reads only the providers it uses.
 * Usage: bun scripts/gen-models.ts [version]   (default 0.87.1; read from the conformance cache's install of pi-ai
 * when it holds that version, else from the npm tarball, cached in .cache/gen-models/)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Api, Model, ModelCompat, ModelCost, ThinkingLevel, ThinkingLevelMap } from "../src/ai/types.ts";

const PACKAGE = "@earendil-works/pi-ai";
const DEFAULT_VERSION = "0.87.1";
const DATA_DIR = "package/dist/providers/data";
/**
 * The wire protocols we ship: every `KnownApi` of pi-ai 0.87.1, so every `KnownProvider` has its models. Models of
 * other apis are left out (and listed in the summary).
 */
const APIS: readonly Api[] = [
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"google-generative-ai",
	"mistral-conversations",
	"azure-openai-responses",
	"openai-codex-responses",
	"bedrock-converse-stream",
	"google-vertex",
	"pi-messages",
];
/** Providers left out of the catalogue (none today: each provider's file is read only when it is used). */
const SKIP_PROVIDERS: ReadonlySet<string> = new Set<string>();

const root = join(import.meta.dir, "..");
const cacheDir = join(root, ".cache", "gen-models");
const modelsDir = join(root, "src", "ai", "models");
const catalogDir = join(modelsDir, "catalog");

/** Every compat key of our types, with the values it may hold. tsc checks that the table lists them all. */
type CompatRule = "boolean" | "record" | "records" | readonly string[];
const COMPAT_RULES: { [K in keyof Required<ModelCompat>]: CompatRule } = {
	supportsStore: "boolean",
	supportsDeveloperRole: "boolean",
	supportsReasoningEffort: "boolean",
	supportsUsageInStreaming: "boolean",
	maxTokensField: ["max_completion_tokens", "max_tokens"],
	requiresToolResultName: "boolean",
	requiresAssistantAfterToolResult: "boolean",
	requiresThinkingAsText: "boolean",
	requiresReasoningContentOnAssistantMessages: "boolean",
	thinkingFormat: [
		"openai",
		"openrouter",
		"deepseek",
		"zai",
		"qwen",
		"qwen-chat-template",
		"together",
		"ant-ling",
		"string-thinking",
	],
	supportsFinishReason: "boolean",
	supportsMaxOutputTokens: "boolean",
	supportsCacheControlOnTools: "boolean",
	supportsTemperature: "boolean",
	allowEmptySignature: "boolean",
	forceAdaptiveThinking: "boolean",
	openRouterRouting: "record",
	vercelGatewayRouting: "record",
	zaiToolStream: "boolean",
	supportsStrictMode: "boolean",
	cacheControlFormat: ["anthropic"],
	sendSessionAffinityHeaders: "boolean",
	supportsLongCacheRetention: "boolean",
	reasoningEffortMap: "record",
	sendSessionIdHeader: "boolean",
	supportsEagerToolInputStreaming: "boolean",
	supportsOpenAIGrammarTools: "boolean",
	supportsMidConvoSystemMessages: "boolean",
	supportsMidConvoToolAdditions: "boolean",
	supportsMidConvoToolChanges: "boolean",
	supportsMidConvoEffort: "boolean",
	supportsStrictTools: "boolean",
	supportsAdditionalTools: "boolean",
	supportsToolSearch: "boolean",
	supportsExplicitPromptCacheMode: "boolean",
	sessionAffinityFormat: ["openai", "openai-nosession", "openrouter"],
	allowedFallbackModels: "records",
};
/** What normalising dropped from compat objects ("key" or "key=value"), with counts, for the summary. */
const droppedCompat = new Map<string, number>();
let negativeCosts = 0;
const THINKING_KEYS: readonly (ThinkingLevel | "off")[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

function fail(message: string): never {
	console.error(`gen-models: ${message}`);
	process.exit(1);
}

function count(counts: Map<string, number>, key: string): void {
	counts.set(key, (counts.get(key) ?? 0) + 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function byKey(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs a command; returns stdout, or the first useful line of its error output when it fails. */
function run(cmd: string[], cwd: string): { ok: true; stdout: string } | { ok: false; error: string } {
	let result: ReturnType<typeof Bun.spawnSync>;
	try {
		result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
	} catch (err) {
		return { ok: false, error: err instanceof Error ? err.message : String(err) };
	}
	const stdout = result.stdout?.toString() ?? "";
	if (result.exitCode === 0) return { ok: true, stdout };
	const stderr = (result.stderr?.toString() ?? "").split("\n").map((line) => line.trim());
	// npm: "npm error <tag> <message>" lines; skip warnings, the error code and the log-file hint.
	const npmErrors = stderr
		.filter((line) => /^npm (error|ERR!)/.test(line))
		.map((line) => line.replace(/^npm (error|ERR!)\s*/, ""))
		.filter((line) => line !== "" && !/^(code |A complete log|Log files)/.test(line))
		.map((line) => line.replace(/^[a-z0-9]+ (?=[A-Z])/, ""));
	const lines = npmErrors.length > 0 ? npmErrors : stderr.filter((line) => line !== "" && !/^npm warn/i.test(line));
	return { ok: false, error: lines[0] ?? `exit code ${result.exitCode}` };
}

/** The package tarball in the cache folder, fetched with `npm pack` unless already there. */
function fetchTarball(version: string): string {
	const spec = `${PACKAGE}@${version}`;
	const expected = join(cacheDir, `${PACKAGE.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
	if (existsSync(expected)) return expected;
	const packed = run(["npm", "pack", spec, "--json", "--pack-destination", cacheDir], cacheDir);
	if (!packed.ok) fail(`npm pack ${spec} failed: ${packed.error}`);
	let filename: unknown;
	try {
		const info: unknown = JSON.parse(packed.stdout);
		filename = Array.isArray(info) && isRecord(info[0]) ? info[0].filename : undefined;
	} catch {
		filename = undefined;
	}
	if (typeof filename !== "string") fail(`npm pack ${spec} gave no tarball name`);
	// Scoped packages are written as "scope-name-version.tgz"; npm reports "@scope/name-version.tgz" in some versions.
	const path = join(cacheDir, filename.replace(/^@/, "").replace("/", "-"));
	if (!existsSync(path)) fail(`npm pack ${spec} did not write ${relative(root, path)}`);
	return path;
}

/**
 * The model data of pi-ai `version` as installed by the conformance cache (`.cache/conformance/run-<version>`), so a
 * refresh for the pinned release needs no download; undefined when that install is not there.
 */
function installedDataDir(version: string): string | undefined {
	const dir = join(
		root,
		".cache",
		"conformance",
		`run-${version}`,
		"node_modules",
		PACKAGE,
		"dist",
		"providers",
		"data",
	);
	return existsSync(dir) ? dir : undefined;
}

function extract(tarball: string, version: string): string {
	const dir = join(cacheDir, version);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const untar = run(["tar", "-xzf", tarball, "-C", dir, DATA_DIR], root);
	if (!untar.ok) fail(`cannot extract ${DATA_DIR} from ${relative(root, tarball)}: ${untar.error}`);
	return join(dir, DATA_DIR);
}

function normaliseCost(value: unknown): ModelCost | string {
	if (!isRecord(value)) return "cost is not an object";
	const cost: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
		const n = value[key] ?? 0;
		if (typeof n !== "number" || !Number.isFinite(n)) return `cost.${key} is not a number`;
		// A negative price (OpenRouter's routers: "-1 per token") means "varies": record it as unknown, 0.
		if (n < 0) negativeCosts++;
		cost[key] = Math.max(0, n);
	}
	return cost;
}

function normaliseThinkingMap(value: unknown): ThinkingLevelMap | undefined {
	if (!isRecord(value)) return undefined;
	const map: ThinkingLevelMap = {};
	for (const key of THINKING_KEYS) {
		const level = value[key];
		if (level === null || typeof level === "string") map[key] = level;
	}
	return Object.keys(map).length > 0 ? map : undefined;
}

function normaliseHeaders(value: unknown): Record<string, string> | undefined {
	if (!isRecord(value)) return undefined;
	const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string");
	return entries.length > 0 ? Object.fromEntries(entries.sort((a, b) => byKey(a[0], b[0]))) : undefined;
}

function normaliseCompat(value: unknown): ModelCompat | undefined {
	if (!isRecord(value)) return undefined;
	const compat: Record<string, unknown> = {};
	for (const key of Object.keys(value)) if (!(key in COMPAT_RULES)) count(droppedCompat, key);
	for (const [key, rule] of Object.entries(COMPAT_RULES) as [string, CompatRule][]) {
		const v = value[key];
		if (v === undefined) continue;
		const fits =
			rule === "boolean"
				? typeof v === "boolean"
				: rule === "record"
					? isRecord(v)
					: rule === "records"
						? Array.isArray(v) && v.every(isRecord)
						: typeof v === "string" && rule.includes(v);
		if (fits) compat[key] = v;
		else count(droppedCompat, `${key}=${JSON.stringify(v)}`);
	}
	return Object.keys(compat).length > 0 ? (compat as ModelCompat) : undefined;
}

/** Our `Model` (fields in declaration order), or why the entry was rejected. */
function normalise(raw: unknown): Model | string {
	if (!isRecord(raw)) return "not an object";
	const { id, name, api, provider, baseUrl, reasoning, contextWindow, maxTokens } = raw;
	if (typeof id !== "string" || id === "") return "no id";
	if (typeof api !== "string") return "no api";
	if (typeof provider !== "string" || provider === "") return "no provider";
	// Azure's models have none: the endpoint comes from AZURE_OPENAI_BASE_URL / AZURE_OPENAI_RESOURCE_NAME.
	if (typeof baseUrl !== "string" || (baseUrl === "" && api !== "azure-openai-responses")) return "no baseUrl";
	if (typeof contextWindow !== "number" || contextWindow <= 0) return "no contextWindow";
	if (typeof maxTokens !== "number" || maxTokens <= 0) return "no maxTokens";
	const input = Array.isArray(raw.input)
		? raw.input.filter((kind): kind is "text" | "image" => kind === "text" || kind === "image")
		: [];
	if (!input.includes("text")) return "input lacks text";
	const cost = normaliseCost(raw.cost);
	if (typeof cost === "string") return cost;
	const thinkingLevelMap = normaliseThinkingMap(raw.thinkingLevelMap);
	const headers = normaliseHeaders(raw.headers);
	const compat = normaliseCompat(raw.compat);
	return {
		id,
		name: typeof name === "string" && name !== "" ? name : id,
		api,
		provider,
		baseUrl,
		reasoning: reasoning === true,
		...(thinkingLevelMap ? { thinkingLevelMap } : {}),
		input,
		cost,
		contextWindow,
		maxTokens,
		...(headers ? { headers } : {}),
		...(compat ? { compat } : {}),
	};
}

/**
 * JSON with one tab per level, where arrays and objects holding only plain values stay on one line. The provider
 * keys are the only lines indented by exactly one tab: src/ai/models/index.ts slices the file there to parse one
 * provider at a time (a test checks the slices against a full parse).
 */
function format(value: unknown, indent = ""): string {
	const flat = (items: unknown[]) => items.every((item) => item === null || typeof item !== "object");
	if (Array.isArray(value)) {
		if (value.length === 0) return "[]";
		if (flat(value)) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
		const inner = `${indent}\t`;
		return `[\n${value.map((item) => inner + format(item, inner)).join(",\n")}\n${indent}]`;
	}
	if (isRecord(value)) {
		const entries = Object.entries(value).filter(([, v]) => v !== undefined);
		if (entries.length === 0) return "{}";
		if (flat(entries.map(([, v]) => v))) {
			return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")} }`;
		}
		const inner = `${indent}\t`;
		const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`);
		return `{\n${lines.join(",\n")}\n${indent}}`;
	}
	return JSON.stringify(value);
}

/**
 * Writes one file per provider (stale ones removed) and catalog.generated.ts, which imports each file as an
 * embedded asset (`type: "file"`: its path, in the binary a path inside it). Returns the bytes written.
 */
export function writeCatalog(sorted: Record<string, Record<string, Model>>, generatedAt?: string): number {
	mkdirSync(catalogDir, { recursive: true });
	for (const name of readdirSync(catalogDir)) {
		if (name.endsWith(".json") && !Object.hasOwn(sorted, name.slice(0, -5))) rmSync(join(catalogDir, name));
	}
	let bytes = 0;
	const imports: string[] = [];
	const rows: string[] = [];
	for (const [i, [provider, byId]] of Object.entries(sorted).entries()) {
		if (!/^[a-z0-9][a-z0-9._-]*$/.test(provider)) fail(`provider id unfit for a file name: ${provider}`);
		const text = `${format(byId)}\n`;
		writeFileSync(join(catalogDir, `${provider}.json`), text);
		bytes += Buffer.byteLength(text);
		imports.push(`import p${i} from "./catalog/${provider}.json" with { type: "file" };`);
		rows.push(`\t${JSON.stringify(provider)}: p${i} as unknown as string,`);
	}
	const module = [
		"// Generated by scripts/gen-models.ts: do not edit, regenerate.",
		"/* biome-ignore-all format: generated code */",
		"/* biome-ignore-all lint: generated code */",
		'// Bun hands a `type: "file"` import over as the file\'s path; TypeScript types it as the JSON value.',
		...imports,
		"",
		"/** Provider id → the path of its models file (sorted by provider; the file maps model id → Model). */",
		"export const CATALOG_FILES: Record<string, string> = {",
		...rows,
		"};",
		"",
		"/** When pi-ai generated the model data (its `providers/data/.manifest.json`), if it says. */",
		`export const CATALOG_GENERATED_AT: string | undefined = ${generatedAt === undefined ? "undefined" : JSON.stringify(generatedAt)};`,
		"",
	];
	writeFileSync(join(modelsDir, "catalog.generated.ts"), module.join("\n"));
	return bytes;
}

/** `generatedAt` of the data folder's manifest (pi-ai's `getBuiltinModelDataGeneratedAt` reads the same). */
function manifestGeneratedAt(dataDir: string): string | undefined {
	const path = join(dataDir, ".manifest.json");
	if (!existsSync(path)) return undefined;
	try {
		const manifest: unknown = JSON.parse(readFileSync(path, "utf8"));
		return isRecord(manifest) && typeof manifest.generatedAt === "string" ? manifest.generatedAt : undefined;
	} catch (err) {
		fail(`${relative(root, path)}: ${err instanceof Error ? err.message : String(err)}`);
	}
}

function main(): void {
	const version = process.argv[2] ?? DEFAULT_VERSION;
	if (!/^[A-Za-z0-9][A-Za-z0-9.+-]*$/.test(version)) fail(`not a version or tag: ${version}`);
	mkdirSync(cacheDir, { recursive: true });
	const dataDir = installedDataDir(version) ?? extract(fetchTarball(version), version);
	const files = readdirSync(dataDir)
		.filter((name) => name.endsWith(".json") && !name.startsWith("."))
		.sort(byKey);
	if (files.length === 0) fail(`no model data in ${relative(root, dataDir)}`);

	const catalog: Record<string, Record<string, Model>> = {};
	const otherApis = new Map<string, number>();
	const skippedProviders = new Map<string, number>();
	let rejected = 0;
	for (const file of files) {
		let data: unknown;
		try {
			data = JSON.parse(readFileSync(join(dataDir, file), "utf8"));
		} catch (err) {
			fail(`${file}: ${err instanceof Error ? err.message : String(err)}`);
		}
		if (!isRecord(data)) fail(`${file}: not an object of apis`);
		for (const models of Object.values(data)) {
			if (!isRecord(models)) continue;
			for (const [key, raw] of Object.entries(models)) {
				const api = isRecord(raw) && typeof raw.api === "string" ? raw.api : "(none)";
				if (!APIS.includes(api)) {
					count(otherApis, api);
					continue;
				}
				const provider = isRecord(raw) && typeof raw.provider === "string" ? raw.provider : "";
				if (SKIP_PROVIDERS.has(provider)) {
					count(skippedProviders, provider);
					continue;
				}
				const model = normalise(raw);
				if (typeof model === "string") {
					console.error(`gen-models: warning: ${file} ${key}: ${model}; skipped`);
					rejected++;
					continue;
				}
				const byId = catalog[model.provider] ?? {};
				catalog[model.provider] = byId;
				if (byId[model.id]) {
					console.error(`gen-models: warning: ${model.provider}/${model.id} listed twice; kept the first`);
					continue;
				}
				byId[model.id] = model;
			}
		}
	}

	const sorted: Record<string, Record<string, Model>> = {};
	for (const provider of Object.keys(catalog).sort(byKey)) {
		const byId = catalog[provider] ?? {};
		sorted[provider] = Object.fromEntries(
			Object.keys(byId)
				.sort(byKey)
				.map((id) => [id, byId[id] as Model]),
		);
	}
	const bytes = writeCatalog(sorted, manifestGeneratedAt(dataDir));

	let total = 0;
	console.log(`${PACKAGE}@${version} → ${relative(root, catalogDir)}/`);
	for (const [provider, byId] of Object.entries(sorted)) {
		const models = Object.values(byId);
		total += models.length;
		const perApi = new Map<string, number>();
		for (const model of models) perApi.set(model.api, (perApi.get(model.api) ?? 0) + 1);
		const apis = [...perApi].map(([api, n]) => `${api} ${n}`).join(", ");
		console.log(`  ${provider.padEnd(28)} ${String(models.length).padStart(4)}  (${apis})`);
	}
	const size = (bytes / 1024).toFixed(0);
	console.log(`${Object.keys(sorted).length} providers, ${total} models, ${size} KB`);
	const list = (counts: Map<string, number>) => [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
	if (otherApis.size > 0) console.log(`left out (api not implemented): ${list(otherApis)}`);
	if (skippedProviders.size > 0) console.log(`left out (provider skipped): ${list(skippedProviders)}`);
	if (droppedCompat.size > 0) console.log(`compat not in our types, dropped: ${list(droppedCompat)}`);
	if (negativeCosts > 0) console.log(`negative prices set to 0: ${negativeCosts}`);
	if (rejected > 0) console.log(`rejected (malformed): ${rejected}`);
}

if (import.meta.main) main();
