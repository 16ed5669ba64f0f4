/**
 * One-line notices in the chat, as pi writes them: a status (dim, after a blank line; a status right after another
 * status replaces it), `Warning: …` (yellow), `Error: …` (red), an extension's error with its stack in dim, and
 * the billing lines shown with `showCacheMissNotices`.
 */
import type { Usage } from "../../../ai/index.ts";
import { type Container, Spacer, Text } from "../../../tui/index.ts";
import { formatTokens } from "../chrome/format.ts";
import { theme } from "../components/style.ts";

export class ChatNotices {
	private lastSpacer: Spacer | undefined;
	private lastText: Text | undefined;

	constructor(
		private readonly chat: Container,
		private readonly outputPad: () => number,
	) {}

	status(message: string): void {
		const children = this.chat.children;
		const last = children[children.length - 1];
		const secondLast = children[children.length - 2];
		if (this.lastText && last === this.lastText && secondLast === this.lastSpacer) {
			this.lastText.setText(theme().fg("dim", message));
			return;
		}
		const spacer = new Spacer(1);
		const text = new Text(theme().fg("dim", message), 1, 0);
		this.chat.addChild(spacer);
		this.chat.addChild(text);
		this.lastSpacer = spacer;
		this.lastText = text;
	}

	warning(message: string): void {
		this.line("warning", `Warning: ${message}`);
	}

	error(message: string): void {
		this.line("error", `Error: ${message}`, this.outputPad());
	}

	/** `Extension "<path>" error: <message>` (no blank line before it), then the stack below its first line, dim. */
	extensionError(extensionPath: string, message: string, stack?: string): void {
		this.chat.addChild(new Text(theme().fg("error", `Extension "${extensionPath}" error: ${message}`), 1, 0));
		if (!stack) return;
		const lines = stack
			.split("\n")
			.slice(1)
			.map((line) => theme().fg("dim", `  ${line.trim()}`))
			.join("\n");
		if (lines) this.chat.addChild(new Text(lines, 1, 0));
	}

	/** A blank line and one line of text in a theme colour. */
	line(color: "error" | "warning" | "dim", text: string, paddingX = 1): void {
		this.chat.addChild(new Spacer(1));
		this.chat.addChild(new Text(theme().fg(color, text), paddingX, 0));
	}

	/** What a compaction or branch summary cost: `Compaction: 12k tokens billed (~$0.05)`. */
	summaryCost(kind: "compaction" | "branch_summary", usage: Usage): void {
		const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
		const cost = usage.cost.total >= 0.01 ? ` (~$${usage.cost.total.toFixed(2)})` : "";
		const label = kind === "compaction" ? "Compaction" : "Branch summary";
		this.line("warning", `${label}: ${formatTokens(tokens)} tokens billed${cost}`);
	}

	/** A `usage` entry of kind `cache_warm`: `Cache warmed (note): $0.0012`. */
	cacheWarming(entry: { note?: string; usage: Usage }): void {
		const note = entry.note ? ` (${entry.note})` : "";
		const cost = entry.usage.cost.total.toFixed(6).replace(/(\.\d{3}\d*?)0+$/, "$1");
		this.line("dim", `Cache warmed${note}: $${cost}`);
	}

	/** Forgets the status line (after the chat was cleared). */
	reset(): void {
		this.lastSpacer = undefined;
		this.lastText = undefined;
	}
}
