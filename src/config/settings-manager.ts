/**
 * pi's `SettingsManager`: typed getters with pi's defaults over the merged settings, and setters that change the
 * global document (the `setProject*` ones the project document) and write it in the background (see
 * `settings-manager-core.ts`). Extensions and SDK scripts use it as in pi:
 * `SettingsManager.create(cwd, agentDir)`, `SettingsManager.inMemory({...})`.
 */
import { getAgentDir } from "./paths.ts";
import { SettingsAccessors } from "./settings-accessors.ts";
import type { SettingsManagerCreateOptions } from "./settings-manager-core.ts";
import type { Settings } from "./settings-schema.ts";
import { FileSettingsStorage, InMemorySettingsStorage, type SettingsStorage } from "./settings-storage.ts";
import { migrateSettings } from "./settings-values.ts";

type Setting<K extends keyof Settings> = NonNullable<Settings[K]>;
type PackageSource = Setting<"packages">[number];
type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";

export class SettingsManager extends SettingsAccessors {
	static create(
		cwd: string = process.cwd(),
		agentDir: string = getAgentDir(),
		options: SettingsManagerCreateOptions = {},
	) {
		const storage = new FileSettingsStorage(cwd, agentDir);
		return new SettingsManager(storage, options, {
			global: storage.globalSettingsPath,
			project: storage.projectSettingsPath,
		});
	}

	static fromStorage(storage: SettingsStorage, options: SettingsManagerCreateOptions = {}): SettingsManager {
		return new SettingsManager(storage, options);
	}

	static inMemory(settings: Partial<Settings> = {}, options: SettingsManagerCreateOptions = {}): SettingsManager {
		const storage = new InMemorySettingsStorage();
		const initial = migrateSettings(structuredClone(settings) as Record<string, unknown>);
		storage.withLock("global", () => JSON.stringify(initial, null, 2));
		return new SettingsManager(storage, options);
	}

	getPackages(): PackageSource[] {
		return [...(this.settings.packages ?? [])];
	}
	setPackages(packages: PackageSource[]): void {
		this.setGlobal("packages", packages);
	}
	setProjectPackages(packages: PackageSource[]): void {
		this.setProject("packages", packages);
	}
	getExtensionPaths(): string[] {
		return [...(this.settings.extensions ?? [])];
	}
	setExtensionPaths(paths: string[]): void {
		this.setGlobal("extensions", paths);
	}
	setProjectExtensionPaths(paths: string[]): void {
		this.setProject("extensions", paths);
	}
	getSkillPaths(): string[] {
		return [...(this.settings.skills ?? [])];
	}
	setSkillPaths(paths: string[]): void {
		this.setGlobal("skills", paths);
	}
	setProjectSkillPaths(paths: string[]): void {
		this.setProject("skills", paths);
	}
	getPromptTemplatePaths(): string[] {
		return [...(this.settings.prompts ?? [])];
	}
	setPromptTemplatePaths(paths: string[]): void {
		this.setGlobal("prompts", paths);
	}
	setProjectPromptTemplatePaths(paths: string[]): void {
		this.setProject("prompts", paths);
	}
	getThemePaths(): string[] {
		return [...(this.settings.themes ?? [])];
	}
	setThemePaths(paths: string[]): void {
		this.setGlobal("themes", paths);
	}
	setProjectThemePaths(paths: string[]): void {
		this.setProject("themes", paths);
	}
	getEnableSkillCommands(): boolean {
		return this.settings.enableSkillCommands ?? true;
	}
	setEnableSkillCommands(enabled: boolean): void {
		this.setGlobal("enableSkillCommands", enabled);
	}
	getThinkingBudgets(): Settings["thinkingBudgets"] {
		return this.settings.thinkingBudgets;
	}

	/** Terminal features forced by settings: `images` ("kitty", "iterm2", or false → null), `trueColor`, `hyperlinks`. */
	getTerminalCapabilityOverrides(): { images?: "kitty" | "iterm2" | null; trueColor?: boolean; hyperlinks?: boolean } {
		const terminal = this.settings.terminal as Record<string, unknown> | undefined;
		const images = terminal?.images;
		return {
			...(images === "kitty" || images === "iterm2" ? { images } : images === false ? { images: null } : {}),
			...(typeof terminal?.trueColor === "boolean" ? { trueColor: terminal.trueColor } : {}),
			...(typeof terminal?.hyperlinks === "boolean" ? { hyperlinks: terminal.hyperlinks } : {}),
		};
	}
	getShowImages(): boolean {
		return this.settings.terminal?.showImages ?? true;
	}
	setShowImages(show: boolean): void {
		this.setGlobal("terminal", show, "showImages");
	}
	getImageWidthCells(): number {
		const width = this.settings.terminal?.imageWidthCells;
		return typeof width === "number" && Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 60;
	}
	setImageWidthCells(width: number): void {
		this.setGlobal("terminal", Math.max(1, Math.floor(width)), "imageWidthCells");
	}
	getClearOnShrink(): boolean {
		return this.settings.terminal?.clearOnShrink ?? process.env.PI_CLEAR_ON_SHRINK === "1";
	}
	setClearOnShrink(enabled: boolean): void {
		this.setGlobal("terminal", enabled, "clearOnShrink");
	}
	getShowTerminalProgress(): boolean {
		return this.settings.terminal?.showTerminalProgress ?? false;
	}
	setShowTerminalProgress(enabled: boolean): void {
		this.setGlobal("terminal", enabled, "showTerminalProgress");
	}
	getTuiMode(): "regular" | "fullscreen" {
		return this.settings.tuiMode === "fullscreen" ? "fullscreen" : "regular";
	}
	setTuiMode(mode: "regular" | "fullscreen"): void {
		this.setGlobal("tuiMode", mode);
	}
	getFullscreenExitOutput(): "transcript" | "resume-hint" {
		return this.settings.fullscreenExitOutput === "resume-hint" ? "resume-hint" : "transcript";
	}
	setFullscreenExitOutput(output: "transcript" | "resume-hint"): void {
		this.setGlobal("fullscreenExitOutput", output);
	}
	getFullscreenScrollbar(): "auto" | "always" | "hidden" {
		const mode = this.settings.fullscreenScrollbar;
		return mode === "always" || mode === "hidden" ? mode : "auto";
	}
	setFullscreenScrollbar(mode: "auto" | "always" | "hidden"): void {
		this.setGlobal("fullscreenScrollbar", mode);
	}
	getFullscreenCopyOnSelect(): boolean {
		return this.settings.fullscreenCopyOnSelect ?? true;
	}
	setFullscreenCopyOnSelect(enabled: boolean): void {
		this.setGlobal("fullscreenCopyOnSelect", enabled);
	}
	getImageAutoResize(): boolean {
		return this.settings.images?.autoResize ?? true;
	}
	setImageAutoResize(enabled: boolean): void {
		this.setGlobal("images", enabled, "autoResize");
	}
	getBlockImages(): boolean {
		return this.settings.images?.blockImages ?? false;
	}
	setBlockImages(blocked: boolean): void {
		this.setGlobal("images", blocked, "blockImages");
	}
	getEnabledModels(): string[] | undefined {
		return this.settings.enabledModels;
	}
	setEnabledModels(patterns: string[] | undefined): void {
		this.setGlobal("enabledModels", patterns);
	}
	getDefaultTools(): string[] | undefined {
		return this.settings.defaultTools ? [...this.settings.defaultTools] : undefined;
	}
	getDoubleEscapeAction(): "fork" | "tree" | "none" {
		return this.settings.doubleEscapeAction ?? "tree";
	}
	setDoubleEscapeAction(action: "fork" | "tree" | "none"): void {
		this.setGlobal("doubleEscapeAction", action);
	}
	getTreeFilterMode(): TreeFilterMode {
		const mode = this.settings.treeFilterMode;
		return mode !== undefined && ["default", "no-tools", "user-only", "labeled-only", "all"].includes(mode)
			? mode
			: "default";
	}
	setTreeFilterMode(mode: TreeFilterMode): void {
		this.setGlobal("treeFilterMode", mode);
	}
	getShowHardwareCursor(): boolean {
		return this.settings.showHardwareCursor ?? process.env.PI_HARDWARE_CURSOR === "1";
	}
	setShowHardwareCursor(enabled: boolean): void {
		this.setGlobal("showHardwareCursor", enabled);
	}
	getEditorPaddingX(): number {
		return this.settings.editorPaddingX ?? 0;
	}
	setEditorPaddingX(padding: number): void {
		this.setGlobal("editorPaddingX", Math.max(0, Math.min(3, Math.floor(padding))));
	}
	getOutputPad(): 0 | 1 {
		return this.settings.outputPad === 0 ? 0 : 1;
	}
	setOutputPad(padding: 0 | 1): void {
		this.setGlobal("outputPad", padding);
	}
	getAutocompleteMaxVisible(): number {
		return this.settings.autocompleteMaxVisible ?? 5;
	}
	setAutocompleteMaxVisible(max: number): void {
		this.setGlobal("autocompleteMaxVisible", Math.max(3, Math.min(20, Math.floor(max))));
	}
	getCodeBlockIndent(): string {
		return this.settings.markdown?.codeBlockIndent ?? "  ";
	}
	getMermaidRenderingMode(): "off" | "final" | "streaming" {
		const mode = this.settings.markdown?.mermaid;
		return mode === "off" || mode === "final" ? mode : "streaming";
	}
	setMermaidRenderingMode(mode: "off" | "final" | "streaming"): void {
		this.setGlobal("markdown", mode, "mermaid");
	}
	getWarnings(): Setting<"warnings"> {
		return { ...(this.settings.warnings ?? {}) };
	}
	setWarnings(warnings: Setting<"warnings">): void {
		this.setGlobal("warnings", { ...warnings });
	}
}
