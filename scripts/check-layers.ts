/**
 * Fails on an import that goes against the layer order (see DEVELOPERS.md):
 *   util ← ai ← agent ← {tools, session, compaction, config} ← {extensions, packages} ← runtime ← modes ← sdk ← cli ← main.ts
 * `tui` depends only on `util` and is imported only by `modes/interactive` and `sdk`. Across folders, only a
 * folder's `index.ts` may be imported (and `modes/interactive/index.ts`). Also warns about files over the size budget (400 lines). Node built-ins
 * whose ES import is costly at start-up under Bun (`node:fs`, `node:fs/promises`, `node:child_process`,
 * `node:os`, `node:console`) may be imported for types only: values come from util (fs.ts, builtins.ts).
 * Usage: bun scripts/check-layers.ts [src-dir]   (exit 1 on any violation; default src-dir: ./src)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..");
const src = resolve(process.argv[2] ?? join(root, "src"));

const RANK: Record<string, number> = {
	util: 0,
	ai: 1,
	agent: 2,
	tools: 3,
	session: 3,
	compaction: 3,
	config: 3,
	extensions: 4,
	resources: 4,
	packages: 4,
	runtime: 5,
	modes: 6,
	sdk: 7,
	cli: 8,
	"main.ts": 9,
};
/** Same-rank edges that are allowed, as "from→to". */
const SIBLING_EDGES = new Set<string>(["compaction→session", "session→config", "packages→extensions"]);
const SIZE_BUDGET = 400;
/** Generated data and type tables are exempt from the size budget. */
const SIZE_EXEMPT = [/\.generated\.ts$/, /\/types\.ts$/];

/** Built-ins reached through util/fs.ts and util/builtins.ts, which load them on first use. */
const LAZY_BUILTINS = new Set(["node:fs", "node:fs/promises", "node:child_process", "node:os", "node:console"]);
const VALUE_IMPORT_RE = /(?:^|\n)\s*import\s+(?!type\b)[^'"]*?from\s*["'](node:[^"']+)["']/g;

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function walk(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return walk(path);
		return /\.(ts|tsx)$/.test(name) ? [path] : [];
	});
}

function layerOf(file: string): string {
	const rel = relative(src, file).split("/");
	return rel.length === 1 ? (rel[0] as string) : (rel[0] as string);
}

const errors: string[] = [];
const warnings: string[] = [];
for (const file of walk(src)) {
	const from = layerOf(file);
	const text = readFileSync(file, "utf8");
	const lines = text.split("\n").length;
	if (lines > SIZE_BUDGET && !SIZE_EXEMPT.some((re) => re.test(file))) {
		warnings.push(`${relative(root, file)}: ${lines} lines (budget ${SIZE_BUDGET})`);
	}
	if (!(from in RANK) && from !== "tui")
		errors.push(`${relative(root, file)}: folder "${from}" has no layer; add it to RANK`);
	for (const match of text.matchAll(VALUE_IMPORT_RE)) {
		const builtin = match[1] as string;
		if (LAZY_BUILTINS.has(builtin)) {
			errors.push(
				`${relative(root, file)} imports ${builtin}: use util's lazy accessors (import type is fine); an ES import of it costs start-up time`,
			);
		}
	}
	for (const match of text.matchAll(IMPORT_RE)) {
		const spec = match[1] ?? match[2];
		if (!spec?.startsWith(".")) continue;
		const target = resolve(dirname(file), spec);
		if (!target.startsWith(src)) continue;
		const to = layerOf(target);
		if (to === from) continue;
		const where = `${relative(root, file)} imports ${spec}`;
		const targetRel = relative(join(src, to), target);
		// The interactive mode has an index of its own, so that the CLI's start-up (modes/index.ts) loads no tui.
		const entry = targetRel === "index.ts" || (to === "modes" && targetRel === "interactive/index.ts");
		if (to !== "main.ts" && !entry) errors.push(`${where}: import ${to}/index.ts, not a file inside it`);
		if (to === "tui") {
			const allowed = from === "sdk" || relative(src, file).startsWith("modes/interactive/");
			if (!allowed) errors.push(`${where}: only modes/interactive and sdk may import tui`);
			continue;
		}
		if (from === "tui") {
			if (to !== "util") errors.push(`${where}: tui may import only util`);
			continue;
		}
		const a = RANK[from];
		const b = RANK[to];
		if (a === undefined || b === undefined) continue;
		if (b > a || (b === a && !SIBLING_EDGES.has(`${from}→${to}`))) {
			errors.push(`${where}: ${from} (layer ${a}) may not import ${to} (layer ${b})`);
		}
	}
}

for (const w of warnings) console.warn(`layers: warning: ${w}`);
for (const e of errors) console.error(`layers: ${e}`);
if (errors.length > 0) {
	console.error(`layers: ${errors.length} violation(s)`);
	process.exit(1);
}
console.log(`layers: ok (${walk(src).length} files)`);
