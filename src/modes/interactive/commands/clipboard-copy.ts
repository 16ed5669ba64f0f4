/**
 * Text to the system clipboard as pi 0.87.1 copies it: off Linux the native clipboard first (`getNativeClipboard`,
 * which writes through pbcopy/AppKit or PowerShell), then the platform's clipboard commands, and OSC 52 (the
 * terminal's own clipboard) where no command reaches a clipboard — remote sessions and headless Linux. Rejects
 * with a one-line reason when nothing could take the text.
 */
import { getNativeClipboard } from "../../../tui/index.ts";
import { copyToClipboard } from "../../../util/index.ts";

export async function copyText(text: string): Promise<void> {
	if (process.platform !== "linux") {
		try {
			const native = getNativeClipboard();
			if (native?.setText) {
				await native.setText(text);
				return;
			}
		} catch {
			// The platform's commands come next.
		}
	}
	await copyToClipboard(text);
}
