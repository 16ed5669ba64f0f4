/** Editing text in the user's editor ($VISUAL / $EDITOR, a command line possibly with arguments) on a temp file. */
import { join } from "node:path";
import { nodeFs, os } from "../../../util/index.ts";

/** The edited text, or undefined when the editor exited with a failure (the text is then left as it was). */
export async function editExternally(command: string, text: string): Promise<string | undefined> {
	const { mkdtempSync, readFileSync, rmSync, writeFileSync } = nodeFs();
	const dir = mkdtempSync(join(os().tmpdir(), "pi-edit-"));
	const file = join(dir, "message.md");
	try {
		writeFileSync(file, text);
		const argv =
			process.platform === "win32"
				? ["cmd", "/c", `${command} "${file}"`]
				: ["sh", "-c", `${command} "$1"`, "sh", file];
		const child = Bun.spawn(argv, {
			stdin: "inherit",
			stdout: "inherit",
			stderr: "inherit",
		});
		const code = await child.exited;
		return code === 0 ? readFileSync(file, "utf8") : undefined;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
