/**
 * `/tree` (also `app.session.tree` and double Escape with doubleEscapeAction "tree"): the session tree selector.
 * Choosing an entry off the current point asks whether to summarise the branch being left ("No summary",
 * "Summarize", "Summarize with custom prompt" — unless `branchSummary.skipPrompt`), then moves there the way
 * `ctx.navigateTree` does (the summary model, `session_before_tree` / `session_tree`), with a progress line that
 * Escape cancels (the tree comes back on the same entry). A chosen user or custom message goes back into the
 * editor. Labels are written as label entries; `app.message.copy` copies the selected entry.
 */
import type { SessionEntry } from "../../../session/index.ts";
import { type Component, Spacer } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { BranchSummaryStatusIndicator } from "../chrome/index.ts";
import { defaultEditorTheme, ExtensionEditorComponent, ExtensionSelectorComponent } from "../dialogs/index.ts";
import type { TreeFilterMode } from "../selectors/tree-model.ts";
import { TreeSelector } from "../selectors/tree-selector.ts";
import { copyText as entryCopyText, fullText } from "../selectors/tree-text.ts";
import { copyText } from "./clipboard-copy.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

const SUMMARY_CHOICES = ["No summary", "Summarize", "Summarize with custom prompt"];
const FILTER_MODES = new Set(["default", "no-tools", "user-only", "labeled-only", "all"]);

function filterMode(c: CommandContext): TreeFilterMode {
	const mode = c.store?.merged.treeFilterMode;
	return typeof mode === "string" && FILTER_MODES.has(mode) ? (mode as TreeFilterMode) : "default";
}

function showTree(c: CommandContext, initialSelectedId?: string): void {
	const manager = c.host.manager;
	if (manager.getEntryCount() === 0) {
		c.app.chat.showStatus("No entries in session");
		return;
	}
	let restore: () => void = () => {};
	const close = () => {
		selector.dispose();
		restore();
		c.app.tui.requestRender();
	};
	const selector = new TreeSelector({
		source: {
			nodes: manager.getTreeNodes(),
			leafId: manager.getLeafId(),
			entry: (id) => manager.getEntry(id),
			entriesBetween: (start, end) => manager.getEntriesBetween(start, end),
			labels: manager.getLabels(),
			indexOf: (id) => manager.getTreeNodeIndex(id),
		},
		terminalRows: c.app.tui.terminal.rows,
		initialFilterMode: filterMode(c),
		initialSelectedId: initialSelectedId ?? null,
		keybindings: c.app.keybindings,
		requestRender: () => c.app.tui.requestRender(),
		onCancel: close,
		onSelect: (entryId) => {
			close();
			void choose(c, entryId);
		},
		onLabel: (entryId, label) => {
			manager.appendLabelChange(entryId, label);
			c.app.tui.requestRender();
		},
		onCopy: (entryId) => void copyEntry(c, entryId ? manager.getEntry(entryId) : undefined),
	});
	restore = c.showSelector(selector);
}

async function copyEntry(c: CommandContext, entry: SessionEntry | undefined): Promise<void> {
	const text = entry ? entryCopyText(entry) : undefined;
	if (!text) {
		c.app.chat.showError("Selected entry has no text to copy");
		c.app.tui.requestRender();
		return;
	}
	try {
		await copyText(text);
		c.app.chat.showStatus("Copied selected message to clipboard");
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	}
	c.app.tui.requestRender();
}

/** A dialog in the editor's place; resolves with its answer (undefined: cancelled). */
function ask<T>(
	c: CommandContext,
	build: (finish: (value: T | undefined) => void) => Component,
): Promise<T | undefined> {
	return new Promise((resolve) => {
		let restore: () => void = () => {};
		const component = build((value) => {
			(component as { dispose?(): void }).dispose?.();
			restore();
			c.app.tui.requestRender();
			resolve(value);
		});
		restore = c.showSelector(component);
	});
}

/** Whether and how to summarise; undefined when the user backs out to the tree. */
async function summaryChoice(c: CommandContext): Promise<{ summarize: boolean; instructions?: string } | undefined> {
	if (c.store?.merged.branchSummary?.skipPrompt) return { summarize: false };
	while (true) {
		const choice = await ask<string>(
			c,
			(finish) =>
				new ExtensionSelectorComponent("Summarize branch?", SUMMARY_CHOICES, finish, () => finish(undefined), {
					keybindings: c.app.keybindings,
				}),
		);
		if (choice === undefined) return undefined;
		if (choice !== "Summarize with custom prompt") return { summarize: choice === "Summarize" };
		const instructions = await ask<string>(
			c,
			(finish) =>
				new ExtensionEditorComponent(
					c.app.tui,
					c.app.keybindings,
					"Custom summarization instructions",
					undefined,
					finish,
					() => finish(undefined),
					{ editorTheme: defaultEditorTheme() },
				),
		);
		if (instructions !== undefined) return { summarize: true, instructions };
	}
}

async function choose(c: CommandContext, entryId: string): Promise<void> {
	const manager = c.host.manager;
	if (entryId === manager.getLeafId()) {
		c.app.chat.showStatus("Already at this point");
		return;
	}
	const choice = await summaryChoice(c);
	if (!choice) {
		showTree(c, entryId);
		return;
	}
	const session = c.host.session;
	if (session?.isStreaming) {
		session.abort();
		await session.waitForIdle();
	}
	if ((session?.compacting ?? 0) > 0 || (session?.summarizing.size ?? 0) > 0) {
		c.app.chat.showError(
			"Wait for the current compaction or tree navigation to finish before navigating the session tree.",
		);
		return;
	}
	const navigator = c.host.current.bridge.navigator;
	if (!navigator) {
		c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
		return;
	}
	const target = manager.getEntry(entryId);
	const editor = c.app.defaultEditor;
	const previousEscape = editor.onEscape;
	if (choice.summarize) {
		editor.onEscape = () => {
			for (const controller of c.host.session?.summarizing ?? []) controller.abort();
		};
		c.app.chat.addChild(new Spacer(1));
		c.status.show(new BranchSummaryStatusIndicator(c.app.tui));
	}
	try {
		const result = (await navigator(entryId, {
			summarize: choice.summarize,
			...(choice.instructions ? { customInstructions: choice.instructions } : {}),
		})) as { cancelled: boolean; aborted?: boolean };
		if (result.aborted) {
			c.app.chat.showStatus("Branch summarization cancelled");
			showTree(c, entryId);
			return;
		}
		if (result.cancelled) {
			c.app.chat.showStatus("Navigation cancelled");
			return;
		}
		c.app.chat.clear();
		c.app.chat.renderHistory(manager.buildContextEntries());
		c.view.sessionReplaced();
		const text = target ? editorText(target) : undefined;
		if (text !== undefined && !c.app.editor.getText().trim()) c.app.editor.setText(text);
		c.app.chat.showStatus("Navigated to selected point");
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	} finally {
		if (choice.summarize) c.status.clear("branchSummary");
		editor.onEscape = previousEscape;
		c.app.tui.requestRender();
	}
}

/** The text a chosen user or custom message puts back into the editor. */
function editorText(entry: SessionEntry): string | undefined {
	if (entry.type === "message" && entry.message.role === "user") return fullText(entry.message.content);
	if (entry.type === "custom_message") return fullText(entry.content);
	return undefined;
}

export const TREE_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "tree",
		description: "Navigate session tree (switch branches)",
		action: "app.session.tree",
		run: (c) => showTree(c),
	},
];
