/**
 * `/trust` (save the project's trust decision through a selector of pi's choices; it applies from the next start,
 * as in pi), `/hotkeys` (every key in force, extension shortcuts included) and `/changelog` (our own changelog,
 * embedded), both drawn in the chat between rules as pi draws them.
 */
import { canonicalPath, currentTheme, ProjectTrustStore } from "../../../resources/index.ts";
import { getKeybindings, Markdown, Spacer, Text } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { defaultMarkdownTheme } from "../components/style.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { TrustSelector } from "../selectors/trust-selector.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

function trust(c: CommandContext): void {
	const dir = canonicalPath(c.host.manager.getCwd());
	const store = new ProjectTrustStore(c.agentDir);
	let saved: ReturnType<ProjectTrustStore["getEntry"]>;
	try {
		saved = store.getEntry(dir);
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
		return;
	}
	let restore = () => {};
	const selector = new TrustSelector({
		dir,
		saved,
		sessionTrusted: c.store?.isProjectTrusted() ?? false,
		onSelect: (choice) => {
			restore();
			try {
				store.setMany(choice.updates);
			} catch (error) {
				c.app.chat.showError(`Could not save the trust decision: ${errorMessage(error)}`);
				return;
			}
			const decision = choice.trusted ? "trusted" : "untrusted";
			c.app.chat.showStatus(`Saved trust decision: ${decision}. Restart pi for this to take effect.`);
			c.app.tui.requestRender();
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(selector);
}

/** A titled block in the chat between two rules, Markdown inside, as pi shows its hotkeys and changelog. */
function showPanel(c: CommandContext, title: string, markdown: string): void {
	const theme = currentTheme();
	const chat = c.app.chat;
	chat.addChild(new Spacer(1));
	chat.addChild(dialogBorder());
	chat.addChild(new Text(theme.bold(theme.fg("accent", title)), 1, 0));
	chat.addChild(new Spacer(1));
	chat.addChild(new Markdown(markdown, 1, 1, defaultMarkdownTheme()));
	chat.addChild(dialogBorder());
}

async function hotkeys(c: CommandContext): Promise<void> {
	const { hotkeysMarkdown } = await import("./hotkeys-text.ts");
	showPanel(c, "Keyboard Shortcuts", hotkeysMarkdown(getKeybindings(), c.shortcuts()));
}

async function changelog(c: CommandContext): Promise<void> {
	const { changelogEntries } = await import("./changelog-text.ts");
	// Oldest first, so the newest entry sits just above the editor.
	const entries = changelogEntries().reverse();
	const text = entries.length > 0 ? entries.map((e) => e.content).join("\n\n") : "No changelog entries found.";
	showPanel(c, "What's New", text);
}

export const INFO_COMMANDS: readonly BuiltinCommand[] = [
	{ name: "changelog", description: "Show what changed in each version", run: changelog },
	{ name: "hotkeys", description: "Show every keyboard shortcut", run: hotkeys },
	{ name: "trust", description: "Save this project's trust decision for future sessions", run: trust },
];
