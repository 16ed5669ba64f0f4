import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { searchByWalking } from "../../../src/tui/autocomplete-files.ts";
import { CombinedAutocompleteProvider, Editor, type SlashCommand } from "../../../src/tui/index.ts";

let root = "";
const signal = new AbortController().signal;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "autocomplete-"));
	const files = [
		"README.md",
		"package.json",
		"src/main.ts",
		"src/editor/editor.ts",
		"src/editor/layout.ts",
		"docs/guide.md",
		"my notes/todo.txt",
		".git/config",
		"node_modules/dep/index.js",
		"build/out.js",
		"logs/app.log",
	];
	for (const file of files) {
		mkdirSync(join(root, file, ".."), { recursive: true });
		writeFileSync(join(root, file), "x");
	}
	writeFileSync(join(root, ".gitignore"), "# generated\nbuild/\n*.log\n");
	for (let i = 0; i < 150; i++) writeFileSync(join(root, `many-${String(i).padStart(3, "0")}.txt`), "");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (provider: CombinedAutocompleteProvider, text: string, force = false) =>
	provider.getSuggestions([text], 0, text.length, { signal, force });

const commands: SlashCommand[] = [
	{ name: "help", description: "Show help" },
	{ name: "model", description: "Pick a model", argumentHint: "<id>" },
	{ name: "skill:review", description: "Review code" },
	{
		name: "theme",
		getArgumentCompletions: (prefix) =>
			["dark", "light"].filter((t) => t.startsWith(prefix)).map((t) => ({ value: t, label: t })),
	},
];

describe("CombinedAutocompleteProvider", () => {
	test("slash commands: fuzzy names, skill names without their prefix, argument hints in descriptions", async () => {
		const provider = new CombinedAutocompleteProvider(commands, root);
		const all = await at(provider, "/");
		expect(all?.items.map((i) => i.value)).toEqual(["help", "model", "skill:review", "theme"]);
		expect(all?.items[1]?.description).toBe("<id> — Pick a model");
		expect((await at(provider, "/rev"))?.items.map((i) => i.value)).toEqual(["skill:review"]);
		expect(await at(provider, "/zzz")).toBeNull();
		const args = await at(provider, "/theme d");
		expect(args).toEqual({ items: [{ value: "dark", label: "dark" }], prefix: "d" });
		const applied = provider.applyCompletion(["/mo"], 0, 3, { value: "model", label: "model" }, "/mo");
		expect(applied).toEqual({ lines: ["/model "], cursorLine: 0, cursorCol: 7 });
	});

	test("@ searches files without fd: .git, node_modules and .gitignore'd paths are skipped", async () => {
		const provider = new CombinedAutocompleteProvider([], root);
		const result = await at(provider, "look at @edit");
		expect(result?.prefix).toBe("@edit");
		expect(result?.items.map((i) => i.value)).toEqual(["@src/editor/", "@src/editor/editor.ts"]);
		expect(result?.items[1]).toMatchObject({ label: "editor.ts", description: "src/editor/editor.ts" });
		const everything = await at(provider, "@");
		const values = everything?.items.map((i) => i.value) ?? [];
		expect(values.length).toBe(20);
		expect(values.some((v) => v.includes(".git/") || v.includes("node_modules") || v.includes("build"))).toBe(false);
		expect((await at(provider, "@app.log")) ?? null).toBeNull();
		const scoped = await at(provider, "@src/editor/lay");
		expect(scoped?.items.map((i) => i.value)).toEqual(["@src/editor/layout.ts"]);
		const quoted = await at(provider, "@todo");
		expect(quoted?.items.map((i) => i.value)).toEqual(['@"my notes/todo.txt"']);
		const applied = provider.applyCompletion(["see @todo"], 0, 9, quoted?.items[0] as never, "@todo");
		expect(applied).toEqual({ lines: ['see @"my notes/todo.txt" '], cursorLine: 0, cursorCol: 25 });
	});

	test("the walk stops at 100 results", async () => {
		const provider = new CombinedAutocompleteProvider([], root);
		const found = await searchByWalking({ baseDir: root, query: "many", maxResults: 100, signal });
		expect(found.length).toBe(100);
		const result = await at(provider, "@many");
		expect(result?.items.length).toBe(20);
		expect(result?.items[0]?.value).toBe("@many-000.txt");
	});

	test("Tab completes paths from the directory listing, directories first", async () => {
		const provider = new CombinedAutocompleteProvider([], root);
		const result = await at(provider, "open src/", true);
		expect(result?.prefix).toBe("src/");
		expect(result?.items).toEqual([
			{ value: "src/editor/", label: "editor/" },
			{ value: "src/main.ts", label: "main.ts" },
		]);
		const partial = await at(provider, "cat ./READ", true);
		expect(partial?.items).toEqual([{ value: "./README.md", label: "README.md" }]);
		expect(provider.shouldTriggerFileCompletion(["/mod"], 0, 4)).toBe(false);
		expect(provider.shouldTriggerFileCompletion(["/model x"], 0, 8)).toBe(true);
	});

	test("in an Editor, Tab with a single match completes at once", async () => {
		const editor = new Editor({ requestRender() {}, terminal: { rows: 24, columns: 80 } } as never, {
			borderColor: (s) => s,
			selectList: {
				selectedPrefix: (s) => s,
				selectedText: (s) => s,
				description: (s) => s,
				scrollInfo: (s) => s,
				noMatch: (s) => s,
			},
		});
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider([], root));
		for (const ch of "cat pack") editor.handleInput(ch);
		editor.handleInput("\t");
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(editor.getText()).toBe("cat package.json");
	});
});
