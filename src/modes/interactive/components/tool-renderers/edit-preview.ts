/** The diff an edit call would make, computed from the file on disk before the edit runs (or why it cannot). */
import { applyEdits, generateDiffString, resolveToolPath } from "../../../../tools/index.ts";
import { readFileSync } from "../../../../util/index.ts";

export type EditPreview = { diff: string; firstChangedLine?: number } | { error: string };

export async function computeEditPreview(
	path: string,
	edits: Array<{ oldText: string; newText: string }>,
	cwd: string,
): Promise<EditPreview> {
	await Promise.resolve();
	let raw: string;
	try {
		raw = readFileSync(resolveToolPath(path, cwd), "utf8") as string;
	} catch (error) {
		const code = (error as { code?: unknown } | null)?.code;
		return {
			error: `Could not edit file: ${path}. ${typeof code === "string" ? `Error code: ${code}` : String(error)}.`,
		};
	}
	try {
		const text = raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
		const { oldLf, newText } = applyEdits(text, "\n", edits, path);
		return generateDiffString(oldLf, newText);
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}
