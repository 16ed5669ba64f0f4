/**
 * The paste-image key: an image on the system clipboard is saved as `pi-clipboard-<uuid>.<ext>` in the temp
 * folder and its path typed into the editor (the agent attaches it from there); otherwise the clipboard's text is
 * pasted. Where no clipboard is reachable, nothing happens but a status line.
 */
import { join } from "node:path";
import { getNativeClipboard } from "../../../tui/index.ts";
import { nodeFs, os } from "../../../util/index.ts";

export type PasteOutcome =
	| { type: "image"; path: string }
	| { type: "text"; text: string }
	| { type: "none"; reason: string };

function extensionOf(bytes: Uint8Array): string {
	if (bytes[0] === 0x89 && bytes[1] === 0x50) return "png";
	if (bytes[0] === 0xff && bytes[1] === 0xd8) return "jpg";
	if (bytes[0] === 0x47 && bytes[1] === 0x49) return "gif";
	if (bytes[0] === 0x52 && bytes[8] === 0x57) return "webp";
	return "png";
}

export async function readClipboardForPaste(): Promise<PasteOutcome> {
	const clipboard = getNativeClipboard();
	if (!clipboard) return { type: "none", reason: "No clipboard is available in this terminal session" };
	const image = await clipboard.getImage().catch(() => undefined);
	if (image && image.length > 0) {
		const path = join(os().tmpdir(), `pi-clipboard-${crypto.randomUUID()}.${extensionOf(image)}`);
		nodeFs().writeFileSync(path, image);
		return { type: "image", path };
	}
	const text = await clipboard.getText().catch(() => undefined);
	if (text) return { type: "text", text };
	return { type: "none", reason: "The clipboard holds no image or text" };
}
