/**
 * The model selectors' list logic: `/model` ordering (current, default, then by provider) and search (provider
 * first, "default" query), the scoped-models state (toggle, all/clear, per provider, reorder, the collapse back to
 * "all"), and the selectors drawn and driven with pi's default keys.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Model } from "../../src/ai/index.ts";
import { APP_KEYBINDINGS } from "../../src/modes/interactive/app/keybindings.ts";
import { MaskedInput } from "../../src/modes/interactive/selectors/login-dialog.ts";
import { filterModels, orderModels } from "../../src/modes/interactive/selectors/model-list.ts";
import { ModelSelector } from "../../src/modes/interactive/selectors/model-selector.ts";
import { ScopedModelsSelector } from "../../src/modes/interactive/selectors/scoped-models.ts";
import {
	clearIds,
	enabledCountText,
	enableIds,
	listedIds,
	moveId,
	toggleId,
} from "../../src/modes/interactive/selectors/scoped-models-list.ts";
import { initTheme, loadChalk } from "../../src/resources/index.ts";
import { KeybindingsManager, setKeybindings, stripTerminalSequences } from "../../src/tui/index.ts";

const model = (provider: string, id: string, name = id): Model => ({ provider, id, name }) as Model;
const A1 = model("anthropic", "claude-a");
const O1 = model("openai", "gpt-x", "GPT X");
const O2 = model("openai", "gpt-y");
const R1 = model("openrouter", "openai/gpt-x");
const ALL = [O1, R1, A1, O2];

const text = (lines: string[]) => lines.map((line) => stripTerminalSequences(line).trimEnd());

beforeAll(async () => {
	await loadChalk();
	initTheme("dark");
	setKeybindings(new KeybindingsManager(APP_KEYBINDINGS));
});

describe("/model list", () => {
	test("current first, default second, then by provider keeping each provider's order", () => {
		expect(orderModels(ALL, O2, R1)).toEqual([O2, R1, A1, O1]);
		expect(orderModels(ALL)).toEqual([A1, O1, O2, R1]);
	});

	test("search ranks the provider's own models before a proxy's same-named id; 'def' lists the default first", () => {
		expect(filterModels(ALL, "openai/gpt-x")[0]).toBe(O1);
		expect(filterModels(ALL, "zzz")).toEqual([]);
		expect(filterModels(ALL, "")).toEqual(ALL);
		expect(filterModels(ALL, "def", A1)[0]).toBe(A1);
	});

	test("the selector marks current and default, wraps Up, and Ctrl+S picks as default", () => {
		const picked: string[] = [];
		const selector = new ModelSelector({
			available: ALL,
			scoped: [],
			current: O1,
			defaultModel: A1,
			onSelect: (m) => picked.push(`select ${m.id}`),
			onSelectAsDefault: (m) => picked.push(`default ${m.id}`),
			onCancel: () => picked.push("cancel"),
		});
		const screen = text(selector.render(80));
		expect(screen).toContain("→ ✓ gpt-x [openai]");
		expect(screen).toContain("    claude-a [anthropic] · default");
		expect(screen).toContain("  Model Name: GPT X");
		expect(screen.join("\n")).toContain("Use /login to add providers.");
		selector.handleInput("\x1b[A"); // wraps to the last row
		selector.handleInput("\r");
		selector.handleInput("\x13"); // ctrl+s
		selector.handleInput("\x1b");
		expect(picked).toEqual(["select openai/gpt-x", "default openai/gpt-x", "cancel"]);
	});

	test("with a scope it opens on the scoped models and Tab shows all", () => {
		const selector = new ModelSelector({
			available: ALL,
			scoped: [O2, A1],
			current: A1,
			onSelect: () => {},
			onSelectAsDefault: () => {},
			onCancel: () => {},
		});
		expect(selector.shown).toEqual([O2, A1]);
		expect(text(selector.render(80))).toContain("Scope: all | scoped");
		selector.handleInput("\t");
		expect(selector.shown).toEqual([A1, O1, O2, R1]);
	});
});

describe("/scoped-models state", () => {
	const ids = ["p/a", "p/b", "q/c"];

	test("toggling from 'all' disables one; enabling the last one collapses back to all", () => {
		const one = toggleId(null, ids, "p/b");
		expect(one).toEqual(["p/a", "q/c"]);
		expect(toggleId(one, ids, "p/b")).toBeNull();
	});

	test("all/clear act on every model or the given ones, provider toggles included", () => {
		expect(clearIds(null, ids)).toEqual([]);
		expect(clearIds(null, ids, ["p/a", "p/b"])).toEqual(["q/c"]);
		expect(enableIds([], ids, ["q/c"])).toEqual(["q/c"]);
		expect(enableIds(["q/c"], ids)).toBeNull();
		expect(enableIds(null, ids, ["q/c"])).toBeNull();
	});

	test("reordering moves within the enabled list and stops at the ends; enabled are listed first", () => {
		expect(moveId(["q/c", "p/a"], "p/a", -1)).toEqual(["p/a", "q/c"]);
		const ends = ["q/c", "p/a"];
		expect(moveId(ends, "q/c", -1)).toBe(ends);
		expect(listedIds(["q/c", "gone/x"], ids)).toEqual(["q/c", "gone/x", "p/a", "p/b"]);
		expect(enabledCountText(["q/c", "gone/x"], ids)).toBe("1/3 enabled · 1 unavailable");
		expect(enabledCountText(null, ids)).toBe("all enabled");
	});

	test("the selector's keys: clear all, Enter toggles, Alt+Up reorders, Ctrl+P toggles a provider, Ctrl+S saves", () => {
		const models = [model("p", "a"), model("p", "b"), model("q", "c")];
		const changes: (readonly string[] | null)[] = [];
		const saved: (readonly string[] | null)[] = [];
		const selector = new ScopedModelsSelector({
			models,
			enabled: null,
			onChange: (enabled) => changes.push(enabled),
			onPersist: (enabled) => saved.push(enabled),
			onCancel: () => {},
		});
		selector.handleInput("\x18"); // ctrl+x: clear
		selector.handleInput("\x1b[B");
		selector.handleInput("\x1b[B");
		selector.handleInput("\r"); // q/c, now listed first: the highlight is on p/b
		selector.handleInput("\x1b[A"); // p/a
		selector.handleInput("\r");
		expect(selector.enabledIds).toEqual(["q/c", "p/a"]);
		selector.handleInput("\x1b[1;3A"); // alt+up on p/a
		expect(selector.enabledIds).toEqual(["p/a", "q/c"]);
		expect(text(selector.render(100)).join("\n")).toContain("2/3 enabled (unsaved)");
		selector.handleInput("\x10"); // ctrl+p: provider p (p/a on, p/b off) → all of p on
		expect(selector.enabledIds).toBeNull();
		selector.handleInput("\x13");
		expect(saved).toEqual([null]);
		expect(changes.length).toBe(5);
	});
});

test("the API-key field draws every character as a dot", () => {
	const input = new MaskedInput();
	for (const ch of "sk-secret") input.handleInput(ch);
	expect(input.getValue()).toBe("sk-secret");
	const line = stripTerminalSequences(input.render(30)[0] as string);
	expect(line.startsWith("> •••••••••")).toBe(true);
	expect(line).not.toContain("secret");
});
