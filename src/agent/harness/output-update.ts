/** Shell output views: folding incremental updates into the current view, and stripping control characters. */
import type { ShellOutputUpdate, ShellOutputView } from "./env-types.ts";

/** The view after `update`: replace it, append to it, slide it (drop a prefix, append), or change metadata only. */
export function applyShellOutputUpdate(
	current: ShellOutputView | undefined,
	update: ShellOutputUpdate,
): ShellOutputView {
	const text = current?.text ?? "";
	switch (update.kind) {
		case "replace":
			return update.output;
		case "append":
			return { text: text + update.text, ...update.metadata };
		case "slide":
			return { text: text.slice(update.drop) + update.text, ...update.metadata };
		case "metadata":
			return { text, ...update.metadata };
	}
}

// C0 controls except tab and newline, and the Unicode interlinear annotation characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters on purpose
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\ufff9-\ufffb]/g;

/** Shell output without the control characters a terminal or a model should not see (tab and newline stay). */
export function sanitizeShellOutput(text: string): string {
	return text.replace(UNPRINTABLE, "");
}
