/**
 * Two submenus of `/settings`: Warnings (one switch per warning) and "Default thinking level per model" (pick a
 * model — searchable, the current model first, then the default model — then its level, or clear its override;
 * after each choice the model list comes back until Escape).
 */
import { getSupportedThinkingLevels, type Model } from "../../../ai/index.ts";
import { Container, type SelectItem, SettingsList } from "../../../tui/index.ts";
import { theme } from "../components/style.ts";
import { SelectSubmenu, settingsListTheme } from "./settings-submenu.ts";
import { LEVEL_DESCRIPTIONS } from "./thinking-selector.ts";

export function warningsSubmenu(
	anthropicExtraUsage: boolean,
	onChange: (key: "anthropicExtraUsage", value: boolean) => void,
	onClose: () => void,
): SettingsList {
	return new SettingsList(
		[
			{
				id: "anthropic-extra-usage",
				label: "Anthropic extra usage",
				description: "Warn when Anthropic subscription auth may use paid extra usage",
				currentValue: String(anthropicExtraUsage),
				values: ["true", "false"],
			},
		],
		1,
		settingsListTheme(),
		(_id, value) => onChange("anthropicExtraUsage", value === "true"),
		onClose,
	);
}

const CLEAR = "__clear__";
const NONE = "__none__";

export const modelKey = (model: Model): string => `${model.provider}/${model.id}`;

/** "none" or "N configured". */
export function overridesSummary(overrides: Record<string, string>): string {
	const count = Object.keys(overrides).length;
	return count === 0 ? "none" : `${count} configured`;
}

export interface ModelThinkingOptions {
	models: readonly Model[];
	currentModel?: Model;
	/** `defaultProvider/defaultModel`, when set. */
	defaultModel?: string;
	/** The `defaultThinkingLevel` (for the clear-override row). */
	globalLevel: string;
	overrides: Record<string, string>;
	set(model: Model, level: string | undefined): void;
	close(summary: string): void;
}

export class ModelThinkingSubmenu extends Container {
	private active: SelectSubmenu | undefined;

	constructor(private readonly o: ModelThinkingOptions) {
		super();
		this.showModels();
	}

	handleInput(data: string): void {
		this.active?.handleInput(data);
	}

	private show(view: SelectSubmenu): void {
		this.clear();
		this.addChild(view);
		this.active = view;
	}

	private sorted(): Model[] {
		const current = this.o.currentModel ? modelKey(this.o.currentModel) : undefined;
		const rank = (m: Model) => (modelKey(m) === current ? 0 : modelKey(m) === this.o.defaultModel ? 1 : 2);
		return [...this.o.models].sort((a, b) => rank(a) - rank(b) || a.provider.localeCompare(b.provider));
	}

	private showModels(): void {
		const models = this.sorted();
		const items: SelectItem[] = models.map((m) => {
			const override = this.o.overrides[modelKey(m)];
			return {
				value: modelKey(m),
				label: `${m.id} ${theme().fg("muted", `[${m.provider}]`)}`,
				...(override ? { description: override } : {}),
			};
		});
		if (items.length === 0) {
			items.push({
				value: NONE,
				label: "No models available",
				description: "Log in to a provider or configure an API key first",
			});
		}
		const preselect = this.o.currentModel ? modelKey(this.o.currentModel) : (this.o.defaultModel ?? "");
		this.show(
			new SelectSubmenu(
				"Per-Model Thinking Level",
				"Select a model to configure",
				items,
				preselect,
				(value) => {
					const model = models.find((m) => modelKey(m) === value);
					if (model) this.showLevels(model);
				},
				() => this.o.close(overridesSummary(this.o.overrides)),
				{ searchable: true },
			),
		);
	}

	private showLevels(model: Model): void {
		const key = modelKey(model);
		const active = this.o.overrides[key];
		const levels = model.reasoning ? (getSupportedThinkingLevels(model) as string[]) : ["off"];
		const descriptions: Record<string, string> = LEVEL_DESCRIPTIONS;
		const items: SelectItem[] = levels.map((level) => ({
			value: level,
			label: `${level === active ? "✓ " : "  "}${level}`,
			...(descriptions[level] ? { description: descriptions[level] } : {}),
		}));
		if (active !== undefined) {
			items.push({
				value: CLEAR,
				label: "  (clear override)",
				description: `Revert to global default (${this.o.globalLevel})`,
			});
		}
		this.show(
			new SelectSubmenu(
				`Thinking Level for ${model.id} [${model.provider}]`,
				"Select default thinking level for this model",
				items,
				active ?? "",
				(value) => {
					if (value === CLEAR) {
						delete this.o.overrides[key];
						this.o.set(model, undefined);
					} else {
						this.o.overrides[key] = value;
						this.o.set(model, value);
					}
					this.showModels();
				},
				() => this.showModels(),
			),
		);
	}
}
