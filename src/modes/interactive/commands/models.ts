/**
 * `/model [provider/model]` (and its key, Ctrl+L), `/thinking [level]` and `/scoped-models`: switching the
 * session's model and thinking level through the runtime (`applyModel` / `applyThinkingLevel`, which record the
 * change and tell extensions), saving defaults (`defaultProvider`/`defaultModel`, `defaultThinkingLevel`,
 * `enabledModels`) to the global settings through the locked store, and the model scope the cycling keys use.
 */
import type { ThinkingLevel } from "../../../agent/index.ts";
import { getSupportedThinkingLevels, type Model } from "../../../ai/index.ts";
import {
	applyModel,
	applyThinkingLevel,
	findExactModelReferenceMatch,
	isUsable,
	resolveModelScopeFromModels,
	THINKING_LEVELS,
} from "../../../runtime/index.ts";
import type { AutocompleteItem } from "../../../tui/index.ts";
import { errorMessage, fuzzyFilter } from "../../../util/index.ts";
import { filterModels, type ModelRef, modelIdSearchText, modelKey, sameModel } from "../selectors/model-list.ts";
import { ModelSelector } from "../selectors/model-selector.ts";
import { ScopedModelsSelector } from "../selectors/scoped-models.ts";
import type { EnabledIds } from "../selectors/scoped-models-list.ts";
import { ThinkingSelector } from "../selectors/thinking-selector.ts";
import { settingsTarget } from "./target.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

const DEFAULT_THINKING: ThinkingLevel = "medium";

function defaultModel(c: CommandContext): ModelRef | undefined {
	const settings = c.store?.merged;
	return settings?.defaultProvider && settings.defaultModel
		? { provider: settings.defaultProvider, id: settings.defaultModel }
		: undefined;
}

function currentModel(c: CommandContext): Model | undefined {
	return c.host.session?.agent.state.model;
}

/** The models `/model` offers: the scope when there is one, else every model that can be used now. */
function modelPool(c: CommandContext): Model[] {
	return c.scopedModels.length > 0 ? [...c.scopedModels] : c.registry.getAvailable();
}

async function saveGlobal(c: CommandContext, what: string, fn: (data: Record<string, unknown>) => void) {
	if (!c.store) throw new Error(`${what} was not saved: no settings file is in use`);
	await c.store.update("global", fn);
}

/** Switches to `model`; with `persist` also saves it as the default (and adds it to a non-empty scope, as pi). */
async function switchModel(c: CommandContext, model: Model, persist: boolean): Promise<void> {
	const t = settingsTarget(c);
	if (!t) {
		c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
		return;
	}
	if (!isUsable(c.registry, model)) {
		c.app.chat.showError(`No API key for ${model.provider}/${model.id}`);
		return;
	}
	try {
		await applyModel(t, model, "set");
		c.view.updateBorderColor();
		if (persist) {
			const inScope = c.scopedModels.length === 0 || c.scopedModels.some((m) => sameModel(m, model));
			if (!inScope) c.scopedModels.push(model);
			await saveGlobal(c, "The default model", (data) => {
				data.defaultProvider = model.provider;
				data.defaultModel = model.id;
				const enabled = data.enabledModels;
				const ref = modelKey(model);
				if (!inScope && Array.isArray(enabled) && enabled.length > 0) {
					if (!enabled.some((p) => typeof p === "string" && p.toLowerCase() === ref.toLowerCase()))
						data.enabledModels = [...enabled, ref];
				}
			});
		}
		c.app.chat.showStatus(persist ? `Default model: ${model.provider}/${model.id}` : `Model: ${model.id}`);
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	}
}

function openModelSelector(c: CommandContext, initialSearch?: string): void {
	let restore = () => {};
	const close = () => {
		restore();
		c.app.tui.requestRender();
	};
	const selector = new ModelSelector({
		available: c.registry.getAvailable(),
		scoped: c.scopedModels,
		current: currentModel(c),
		defaultModel: defaultModel(c),
		...(initialSearch ? { initialSearch } : {}),
		onSelect: (model) => {
			close();
			void switchModel(c, model, false).then(() => c.app.tui.requestRender());
		},
		onSelectAsDefault: (model) => {
			close();
			void switchModel(c, model, true).then(() => c.app.tui.requestRender());
		},
		onCancel: close,
	});
	restore = c.showSelector(selector);
}

async function modelCommand(c: CommandContext, args: string): Promise<void> {
	if (!args) {
		openModelSelector(c);
		return;
	}
	const exact = findExactModelReferenceMatch(args, modelPool(c));
	if (exact) {
		await switchModel(c, exact, false);
		return;
	}
	// No exact match: the selector opens on the search, as in pi, unless nothing could match at all.
	const candidates = [...new Set([...c.scopedModels, ...c.registry.getAvailable()])];
	if (filterModels(candidates, args).length === 0) {
		c.app.chat.showError(`No model matches "${args}". Use /model to list the available models.`);
		return;
	}
	openModelSelector(c, args);
}

function completeModel(c: CommandContext, prefix: string): AutocompleteItem[] | null {
	const items = fuzzyFilter(modelPool(c), prefix, modelIdSearchText);
	return items.length === 0 ? null : items.map((m) => ({ value: modelKey(m), label: m.id, description: m.provider }));
}

// ---- thinking ------------------------------------------------------------------------------------------------

function thinkingLevels(c: CommandContext): ThinkingLevel[] {
	const model = currentModel(c);
	return model ? (getSupportedThinkingLevels(model) as ThinkingLevel[]) : [...THINKING_LEVELS];
}

async function setThinking(c: CommandContext, level: ThinkingLevel, persist: boolean): Promise<void> {
	const t = settingsTarget(c);
	if (!t) {
		c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
		return;
	}
	try {
		await applyThinkingLevel(t, level);
		if (persist)
			await saveGlobal(c, "The default thinking level", (data) => {
				data.defaultThinkingLevel = level;
			});
		c.view.updateBorderColor();
		c.app.chat.showStatus(persist ? `Default thinking level: ${level}` : `Thinking level: ${level}`);
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	}
	c.app.tui.requestRender();
}

async function thinkingCommand(c: CommandContext, args: string): Promise<void> {
	const levels = thinkingLevels(c);
	if (args) {
		const level = levels.find((l) => l === args.trim().toLowerCase());
		if (!level) {
			c.app.chat.showError(`Unknown thinking level "${args}". Available levels: ${levels.join(", ")}.`);
			return;
		}
		await setThinking(c, level, false);
		return;
	}
	let restore = () => {};
	const done = (level: ThinkingLevel | undefined, persist: boolean) => {
		restore();
		if (level) void setThinking(c, level, persist);
		c.app.tui.requestRender();
	};
	const selector = new ThinkingSelector({
		current: c.host.session?.agent.state.thinkingLevel ?? DEFAULT_THINKING,
		levels,
		defaultLevel: (c.store?.merged.defaultThinkingLevel as ThinkingLevel | undefined) ?? DEFAULT_THINKING,
		onSelect: (level) => done(level, false),
		onSelectAsDefault: (level) => done(level, true),
		onCancel: () => done(undefined, false),
	});
	restore = c.showSelector(selector);
}

// ---- scoped models -------------------------------------------------------------------------------------------

/** The ids a pattern list enables over `models`; patterns that match nothing are kept (shown as unavailable). */
function enabledFromPatterns(patterns: readonly string[], models: readonly Model[]): string[] {
	const resolved = resolveModelScopeFromModels([...patterns], models);
	const ids = resolved.scopedModels.map((s) => modelKey(s.model));
	for (const d of resolved.diagnostics) if (d.code === "no-match" && !ids.includes(d.pattern)) ids.push(d.pattern);
	return ids;
}

function scopedModelsCommand(c: CommandContext): void {
	const available = c.registry.getAvailable();
	const availableIds = new Set(available.map(modelKey));
	const patterns = c.store?.merged.enabledModels;
	const initial: EnabledIds =
		c.scopedModels.length > 0
			? c.scopedModels.map(modelKey)
			: patterns && patterns.length > 0
				? enabledFromPatterns(patterns, available)
				: null;
	const applyScope = (enabled: EnabledIds) => {
		const some = enabled?.some((id) => availableIds.has(id)) ?? false;
		const all = enabled !== null && [...availableIds].every((id) => enabled.includes(id));
		const next =
			enabled && some && !all
				? resolveModelScopeFromModels([...enabled], available).scopedModels.map((s) => s.model)
				: [];
		// In place: the cycling keys and /model read this same array.
		c.scopedModels.splice(0, c.scopedModels.length, ...next);
		c.app.tui.requestRender();
	};
	let restore = () => {};
	const selector = new ScopedModelsSelector({
		models: available,
		enabled: initial,
		onChange: applyScope,
		onPersist: (enabled) => {
			const all =
				enabled !== null && enabled.length === available.length && enabled.every((id) => availableIds.has(id));
			const value = enabled === null || all ? undefined : [...enabled];
			void saveGlobal(c, "The model selection", (data) => {
				if (value) data.enabledModels = value;
				else delete data.enabledModels;
			})
				.then(() => c.app.chat.showStatus("Model selection saved to settings"))
				.catch((error) => c.app.chat.showError(errorMessage(error)))
				.finally(() => c.app.tui.requestRender());
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(selector);
}

export const MODEL_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "model",
		description: "Select model (opens selector UI)",
		argumentHint: "<provider/model>",
		action: "app.model.select",
		run: modelCommand,
		complete: completeModel,
	},
	{
		name: "thinking",
		description: "Set thinking level",
		argumentHint: "<level>",
		run: thinkingCommand,
		complete: (c, prefix) => {
			const levels = fuzzyFilter(thinkingLevels(c), prefix, (level) => level);
			return levels.length === 0 ? null : levels.map((level) => ({ value: level, label: level }));
		},
	},
	{
		name: "scoped-models",
		description: "Enable/disable models for Ctrl+P cycling",
		run: scopedModelsCommand,
	},
];
