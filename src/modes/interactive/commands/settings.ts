/**
 * `/settings`: pi 0.87.1's settings screen in the editor's place. Every change is saved at once to the agent-dir
 * settings.json through the locked store (pi's settings screen writes only the global file; a project file that
 * sets the same key still wins, as in pi) and applied where pi applies it live: auto-compaction, queue modes,
 * thinking visibility, editor padding, autocomplete size, hardware cursor, clear-on-shrink, images and output
 * padding (the chat is redrawn), double-Escape action, per-model thinking of the current model, and the theme
 * (previewed while moving in its list, restored by Escape).
 */
import type { Model } from "../../../ai/index.ts";
import type { SettingsKeyPath } from "../../../config/index.ts";
import { resolveSettings } from "../../../config/index.ts";
import { applyThinkingLevel, type SettingsTarget } from "../../../runtime/index.ts";
import { getCapabilities } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { appKeyText } from "../chrome/index.ts";
import {
	type CyclingSetting,
	formatIdleTimeout,
	type SubmenuSetting,
	settingRows,
} from "../selectors/settings-items.ts";
import { SettingsSelector, type SubmenuFactory } from "../selectors/settings-selector.ts";
import { ModelThinkingSubmenu, modelKey, overridesSummary, warningsSubmenu } from "../selectors/settings-submenus.ts";
import { ThemeSelector } from "../selectors/theme-selector.ts";
import { settingsTarget } from "./target.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

function settings(c: CommandContext) {
	return c.store?.resolved ?? resolveSettings({});
}

/** Saves one key to the global settings file; a failure is one error line and the screen stays as it was. */
async function save(c: CommandContext, path: SettingsKeyPath, value: unknown): Promise<void> {
	if (!c.store) return;
	try {
		await c.store.set("global", path, value);
	} catch (error) {
		c.app.chat.showError(`Could not save setting: ${errorMessage(error)}`);
		c.app.tui.requestRender();
	}
}

/** The live value of rows the session holds (pi reads these from the session, not the file). */
function liveValue(c: CommandContext, row: CyclingSetting): string | undefined {
	const agent = c.host.session?.agent;
	switch (row.id) {
		case "autocompact": {
			const enabled = c.host.current.compactionSettings?.enabled;
			return enabled === undefined ? undefined : String(enabled);
		}
		case "steering-mode":
			return agent?.steeringMode;
		case "follow-up-mode":
			return agent?.followUpMode;
		case "hide-thinking":
			return String(c.app.hideThinking);
		default:
			return undefined;
	}
}

function redrawChat(c: CommandContext): void {
	if (!c.host.session?.isStreaming) c.app.chat.rebuildFromContext();
	c.app.tui.requestRender();
}

/** Applies a changed row where pi applies it live. */
function applyLive(c: CommandContext, row: CyclingSetting, stored: unknown): void {
	const { app } = c;
	const agent = c.host.session?.agent;
	const display = c.live?.display;
	switch (row.id) {
		case "autocompact": {
			const compaction = c.host.current.compactionSettings;
			if (compaction) compaction.enabled = stored as boolean;
			c.view.footer.setAutoCompactEnabled(stored as boolean);
			break;
		}
		case "steering-mode":
			if (agent) agent.steeringMode = stored as "all" | "one-at-a-time";
			break;
		case "follow-up-mode":
			if (agent) agent.followUpMode = stored as "all" | "one-at-a-time";
			break;
		case "hide-thinking":
			app.hideThinking = stored as boolean;
			app.settings.hideThinkingBlock = stored as boolean;
			app.chat.setHideThinking(stored as boolean);
			break;
		case "editor-padding":
			app.settings.editorPaddingX = stored as number;
			app.defaultEditor.setPaddingX(stored as number);
			if (app.editor !== app.defaultEditor) app.editor.setPaddingX?.(stored as number);
			break;
		case "autocomplete-max-visible":
			app.settings.autocompleteMaxVisible = stored as number;
			app.defaultEditor.setAutocompleteMaxVisible(stored as number);
			if (app.editor !== app.defaultEditor) app.editor.setAutocompleteMaxVisible?.(stored as number);
			break;
		case "show-hardware-cursor":
			app.settings.showHardwareCursor = stored as boolean;
			app.tui.setShowHardwareCursor(stored as boolean);
			break;
		case "clear-on-shrink":
			app.settings.clearOnShrink = stored as boolean;
			app.tui.setClearOnShrink(stored as boolean);
			break;
		case "double-escape-action":
			app.settings.doubleEscapeAction = stored as "tree" | "fork" | "none";
			break;
		case "quiet-startup":
			app.settings.quietStartup = stored as boolean;
			break;
		case "show-images":
		case "image-width-cells":
		case "output-padding":
		case "cache-miss-notices":
			if (display) {
				if (row.id === "show-images") display.showImages = stored as boolean;
				if (row.id === "image-width-cells") display.imageWidthCells = stored as number;
				if (row.id === "output-padding") display.outputPad = stored as number;
				if (row.id === "cache-miss-notices") display.showCacheMissNotices = stored as boolean;
				redrawChat(c);
			}
			break;
		case "mermaid-rendering":
			app.chat.invalidate();
			break;
		case "http-idle-timeout":
			app.chat.showStatus(`HTTP idle timeout: ${formatIdleTimeout(stored as number)}`);
			break;
		case "cache-warming-mode":
			app.chat.showStatus(`Cache warming: ${String(stored)}`);
			break;
		case "tui-mode":
			// The running app switches screens now, as pi does; an open overlay has to close first.
			if (app.setTuiMode(stored as "regular" | "fullscreen")) app.chat.showStatus(`TUI mode: ${String(stored)}`);
			else app.chat.showStatus("Close active overlays before changing TUI mode");
			break;
		case "fullscreen-scrollbar":
			app.screen.applyFullscreenSettings({ fullscreenScrollbar: stored as "auto" | "always" | "hidden" });
			break;
		case "fullscreen-copy-on-select":
			app.screen.applyFullscreenSettings({ fullscreenCopyOnSelect: stored as boolean });
			break;
	}
	app.tui.requestRender();
}

function themeSubmenu(c: CommandContext): { value: string; open: SubmenuFactory } | undefined {
	const themes = c.live?.themes;
	if (!themes) return undefined;
	const names = themes.available(c.resources.getThemes().themes.map((t) => t.name));
	return {
		value: themes.selection(),
		open: (current, close) =>
			new ThemeSelector(current, themes.terminalTheme, names, { preview: (s) => themes.preview(s) }, (setting) => {
				close(setting);
				if (setting === undefined) return;
				void themes.apply(setting).catch((error: unknown) => {
					c.app.chat.showError(`Could not save setting: ${errorMessage(error)}`);
					c.app.tui.requestRender();
				});
			}),
	};
}

function modelThinkingSubmenu(c: CommandContext): { value: string; open: SubmenuFactory } {
	const s = settings(c);
	const overrides: Record<string, string> = { ...(s.modelThinkingLevels ?? {}) } as Record<string, string>;
	const current = c.host.session?.agent.state.model;
	return {
		value: overridesSummary(overrides),
		open: (_value, close) =>
			new ModelThinkingSubmenu({
				models: c.registry.getAvailable(),
				...(current ? { currentModel: current } : {}),
				...(s.defaultProvider && s.defaultModel ? { defaultModel: `${s.defaultProvider}/${s.defaultModel}` } : {}),
				globalLevel: s.defaultThinkingLevel ?? "medium",
				overrides,
				set: (model: Model, level) => {
					void save(c, ["modelThinkingLevels", modelKey(model)], level);
					const now = c.host.session?.agent.state.model;
					const target = settingsTarget(c);
					if (!target || !now || modelKey(now) !== modelKey(model)) return;
					void applyThinkingAndRedraw(c, target, (level ?? s.defaultThinkingLevel ?? "medium") as never);
				},
				close: (summary) => close(summary),
			}),
	};
}

async function applyThinkingAndRedraw(
	c: CommandContext,
	target: SettingsTarget,
	level: Parameters<typeof applyThinkingLevel>[1],
): Promise<void> {
	await applyThinkingLevel(target, level);
	c.view.updateBorderColor();
	c.app.tui.requestRender();
}

function submenu(c: CommandContext, row: SubmenuSetting): { value: string; open: SubmenuFactory } | undefined {
	if (row.id === "theme") return themeSubmenu(c);
	if (row.id === "model-thinking") return modelThinkingSubmenu(c);
	const warnings = { anthropicExtraUsage: settings(c).warnings?.anthropicExtraUsage ?? true };
	return {
		value: "configure",
		open: (_value, close) =>
			warningsSubmenu(
				warnings.anthropicExtraUsage,
				(key, value) => {
					warnings[key] = value;
					void save(c, ["warnings", key], value);
				},
				() => close(),
			),
	};
}

function openSettings(c: CommandContext): void {
	const resolved = settings(c);
	const rows = settingRows({
		supportsImages: getCapabilities().images !== null,
		followUpKey: appKeyText("app.message.followUp"),
		cycleThinkingKey: appKeyText("app.thinking.cycle"),
	});
	let restore = () => {};
	const selector = new SettingsSelector({
		rows,
		valueOf: (row) => liveValue(c, row) ?? row.read(resolved),
		submenu: (row) => submenu(c, row),
		onChange: (row, value) => {
			const stored = row.parse(value);
			applyLive(c, row, stored);
			void save(c, row.path, stored);
		},
		onClose: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(selector);
	c.app.tui.requestRender();
}

export const SETTINGS_COMMANDS: readonly BuiltinCommand[] = [
	{ name: "settings", description: "Open settings menu", run: openSettings },
];
