/**
 * Collapsible blocks on the custom-message background: a compaction ("[compaction]", how many tokens were
 * compacted, the summary when expanded), a branch summary ("[branch]") and a skill the user invoked ("[skill] name",
 * its content when expanded).
 */
import { Box, Container, Markdown, type MarkdownTheme, Spacer, Text } from "../../../tui/index.ts";
import { appKeyText } from "../chrome/keys.ts";
import { boldLabel, defaultMarkdownTheme, theme } from "./style.ts";

const textColor = (text: string) => theme().fg("customMessageText", text);
const label = (name: string) => theme().fg("customMessageLabel", boldLabel(`[${name}]`));

/** "<text> (<key> to expand)" with the key dim. */
const collapsedLine = (text: string) =>
	textColor(`${text} (`) + theme().fg("dim", appKeyText("app.tools.expand")) + textColor(" to expand)");

/** A box that rebuilds its content when expanded or collapsed. */
abstract class CollapsibleBlock extends Box {
	protected expanded = false;
	protected readonly markdownTheme: MarkdownTheme;

	constructor(markdownTheme: MarkdownTheme) {
		super(1, 1, (text) => theme().bg("customMessageBg", text));
		this.markdownTheme = markdownTheme;
	}

	/** Changes only through `setExpanded` and `invalidate` (the transcript may freeze its lines). */
	isSettled(): boolean {
		return true;
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.updateDisplay();
	}

	override invalidate(): void {
		super.invalidate();
		this.updateDisplay();
	}

	protected updateDisplay(): void {
		this.clear();
		const content = new Container();
		this.fill(content);
		this.addChild(content);
	}

	protected markdown(text: string): Markdown {
		return new Markdown(text, 0, 0, this.markdownTheme, { color: textColor });
	}

	protected abstract fill(content: Container): void;
}

export interface CompactionSummaryLike {
	summary: string;
	tokensBefore: number;
}

export class CompactionSummaryMessageComponent extends CollapsibleBlock {
	private readonly message: CompactionSummaryLike;

	constructor(message: CompactionSummaryLike, markdownTheme: MarkdownTheme = defaultMarkdownTheme()) {
		super(markdownTheme);
		this.message = message;
		this.updateDisplay();
	}

	protected fill(content: Container): void {
		const tokens = this.message.tokensBefore.toLocaleString();
		content.addChild(new Text(label("compaction"), 0, 0));
		content.addChild(new Spacer(1));
		if (this.expanded)
			content.addChild(this.markdown(`**Compacted from ${tokens} tokens**\n\n${this.message.summary}`));
		else content.addChild(new Text(collapsedLine(`Compacted from ${tokens} tokens`), 0, 0));
	}
}

export interface BranchSummaryLike {
	summary: string;
}

export class BranchSummaryMessageComponent extends CollapsibleBlock {
	private readonly message: BranchSummaryLike;

	constructor(message: BranchSummaryLike, markdownTheme: MarkdownTheme = defaultMarkdownTheme()) {
		super(markdownTheme);
		this.message = message;
		this.updateDisplay();
	}

	protected fill(content: Container): void {
		content.addChild(new Text(label("branch"), 0, 0));
		content.addChild(new Spacer(1));
		if (this.expanded) content.addChild(this.markdown(`**Branch Summary**\n\n${this.message.summary}`));
		else content.addChild(new Text(collapsedLine("Branch summary"), 0, 0));
	}
}

export interface SkillBlockLike {
	name: string;
	content: string;
}

export class SkillInvocationMessageComponent extends CollapsibleBlock {
	private readonly skillBlock: SkillBlockLike;

	constructor(skillBlock: SkillBlockLike, markdownTheme: MarkdownTheme = defaultMarkdownTheme()) {
		super(markdownTheme);
		this.skillBlock = skillBlock;
		this.updateDisplay();
	}

	protected fill(content: Container): void {
		const t = theme();
		if (this.expanded) {
			content.addChild(new Text(label("skill"), 0, 0));
			content.addChild(this.markdown(`**${this.skillBlock.name}**\n\n${this.skillBlock.content}`));
			return;
		}
		const hint = t.fg("dim", ` (${appKeyText("app.tools.expand")} to expand)`);
		const line = t.fg("customMessageLabel", `${boldLabel("[skill]")} `) + textColor(this.skillBlock.name) + hint;
		content.addChild(new Text(line, 0, 0));
	}
}
