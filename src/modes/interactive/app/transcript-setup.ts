/**
 * The chat region for the app: a ChatTranscript whose tool renderers, message/entry renderers and Markdown
 * transformers come from the extensions loaded now (looked up at each use, so a reload's extensions apply), and
 * whose display settings are the run's.
 */
import type { ExtensionHost, RuntimeHost } from "../../../runtime/index.ts";
import type { MarkdownTransformer, MessageRenderer, ToolRenderers } from "../components/index.ts";
import { withBuiltInRenderers } from "../components/index.ts";
import { ChatTranscript, type TranscriptSettings } from "../transcript/index.ts";

export interface TranscriptSources {
	host(): RuntimeHost | undefined;
	extensions(): ExtensionHost | undefined;
	cwd: string;
	settings: TranscriptSettings;
	onHistoryUserText(text: string): void;
}

function registered<T>(sources: TranscriptSources, pick: (e: ExtensionHost["extensions"][number]) => T | undefined) {
	for (const extension of [...(sources.extensions()?.extensions ?? [])].reverse()) {
		const found = pick(extension);
		if (found !== undefined) return found;
	}
	return undefined;
}

export function createTranscript(ui: { requestRender(): void }, sources: TranscriptSources): ChatTranscript {
	return new ChatTranscript({
		ui,
		cwd: () => sources.host()?.manager.getCwd() ?? sources.cwd,
		getToolDefinition: (name) =>
			withBuiltInRenderers(
				name,
				registered(sources, (e) => e.handle.registrations.tools.get(name) as ToolRenderers | undefined),
			),
		getMessageRenderer: (type) =>
			registered(sources, (e) => e.handle.registrations.messageRenderers.get(type) as MessageRenderer | undefined),
		getEntryRenderer: (type) =>
			registered(sources, (e) => e.handle.registrations.entryRenderers.get(type) as never) as never,
		markdownTransformers: () =>
			(sources.extensions()?.extensions ?? []).flatMap(
				(e) => e.handle.registrations.markdownTransformers as MarkdownTransformer[],
			),
		settings: sources.settings,
		contextEntries: () => sources.host()?.manager.buildContextEntries() ?? [],
		onHistoryUserText: (text) => sources.onHistoryUserText(text),
	});
}
