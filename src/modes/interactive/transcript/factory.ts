/**
 * Makes the transcript's components with the current display state (tools expanded, thinking hidden and its label)
 * and the settings as they are now, the way pi's interactive mode makes each one.
 */
import type { MarkdownTheme } from "../../../tui/index.ts";
import {
	AssistantMessageComponent,
	type AssistantMessageLike,
	BashExecutionComponent,
	BranchSummaryMessageComponent,
	type CompactionSummaryLike,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	type CustomMessageLike,
	type MarkdownTransformer,
	type SkillBlockLike,
	SkillInvocationMessageComponent,
	ToolExecutionComponent,
	type ToolRenderers,
	UserMessageComponent,
	withBuiltInRenderers,
} from "../components/index.ts";
import { defaultMarkdownTheme } from "../components/style.ts";
import { CustomEntryComponent } from "./custom-entry.ts";
import type { ChatTranscriptOptions, CustomEntryLike, TranscriptSettings } from "./types.ts";

export const DEFAULT_HIDDEN_THINKING_LABEL = "Thinking...";

/** What a `!command` run left in the session (`bashExecution` message). */
export interface BashExecutionLike {
	command: string;
	output?: string;
	exitCode?: number | null;
	cancelled?: boolean;
	truncated?: boolean;
	fullOutputPath?: string;
	excludeFromContext?: boolean;
}

export class TranscriptFactory {
	expanded = false;
	hideThinking: boolean;
	hiddenThinkingLabel = DEFAULT_HIDDEN_THINKING_LABEL;
	private readonly settings: TranscriptSettings;

	constructor(private readonly options: ChatTranscriptOptions) {
		this.settings = options.settings ?? {};
		this.hideThinking = this.settings.hideThinkingBlock ?? false;
	}

	get outputPad(): number {
		return this.settings.outputPad ?? 1;
	}

	get showCacheNotices(): boolean {
		return this.settings.showCacheMissNotices ?? false;
	}

	private markdownTheme(): MarkdownTheme {
		return this.options.markdownTheme?.() ?? defaultMarkdownTheme();
	}

	private transformers(): MarkdownTransformer[] {
		return this.options.markdownTransformers?.() ?? [];
	}

	private cwd(): string {
		const cwd = this.options.cwd;
		return typeof cwd === "function" ? cwd() : cwd;
	}

	private toolDefinition(toolName: string): ToolRenderers | undefined {
		const lookup = this.options.getToolDefinition;
		return lookup ? lookup(toolName) : withBuiltInRenderers(toolName);
	}

	assistant(message?: AssistantMessageLike): AssistantMessageComponent {
		return new AssistantMessageComponent(
			message,
			this.hideThinking,
			this.markdownTheme(),
			this.hiddenThinkingLabel,
			this.outputPad,
			this.transformers(),
		);
	}

	user(text: string): UserMessageComponent {
		return new UserMessageComponent(text, this.markdownTheme(), this.outputPad, this.transformers());
	}

	skill(block: SkillBlockLike): SkillInvocationMessageComponent {
		const component = new SkillInvocationMessageComponent(block, this.markdownTheme());
		component.setExpanded(this.expanded);
		return component;
	}

	tool(toolName: string, toolCallId: string, args: unknown): ToolExecutionComponent {
		const display = {
			showImages: this.settings.showImages ?? true,
			imageWidthCells: this.settings.imageWidthCells ?? 60,
		};
		const definition = this.toolDefinition(toolName);
		const component = new ToolExecutionComponent(
			toolName,
			toolCallId,
			args,
			display,
			definition,
			this.options.ui,
			this.cwd(),
		);
		component.setExpanded(this.expanded);
		return component;
	}

	custom(message: CustomMessageLike): CustomMessageComponent {
		const renderer = this.options.getMessageRenderer?.(message.customType);
		const component = new CustomMessageComponent(message, renderer, this.markdownTheme(), this.outputPad);
		component.setExpanded(this.expanded);
		return component;
	}

	compaction(message: CompactionSummaryLike): CompactionSummaryMessageComponent {
		const component = new CompactionSummaryMessageComponent(message, this.markdownTheme());
		component.setExpanded(this.expanded);
		return component;
	}

	branchSummary(message: { summary: string }): BranchSummaryMessageComponent {
		const component = new BranchSummaryMessageComponent(message, this.markdownTheme());
		component.setExpanded(this.expanded);
		return component;
	}

	/** A finished `!command` (from history); like pi, it starts collapsed whatever the tools-expanded state. */
	bashResult(message: BashExecutionLike): BashExecutionComponent {
		const component = new BashExecutionComponent(message.command, this.options.ui, message.excludeFromContext);
		if (message.output) component.appendOutput(message.output);
		component.setComplete(
			message.exitCode,
			message.cancelled ?? false,
			message.truncated ? { truncated: true } : undefined,
			message.fullOutputPath,
		);
		return component;
	}

	/** A `!command` starting now; the caller streams its output in and completes it. */
	bashRun(command: string, excludeFromContext = false): BashExecutionComponent {
		return new BashExecutionComponent(command, this.options.ui, excludeFromContext);
	}

	/** A custom entry drawn by its entry renderer, or undefined (no renderer, or it drew nothing). */
	entry(entry: CustomEntryLike): CustomEntryComponent | undefined {
		const renderer = this.options.getEntryRenderer?.(entry.customType);
		if (!renderer) return undefined;
		const component = new CustomEntryComponent(entry, renderer);
		component.setExpanded(this.expanded);
		return component.hasContent() ? component : undefined;
	}
}
