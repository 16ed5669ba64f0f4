/**
 * Editing text in the user's own editor (Ctrl+G): the text goes to a temporary `prompt.md`, the command runs on the
 * terminal (the caller stops the TUI first), and the file's content comes back when the editor exits with 0
 * (byte-order mark and one trailing newline removed). The temporary folder is removed in every case.
 */
import { childProcess, nodeFs, os } from "../../../util/index.ts";

export type ExternalEditResult = { status: "complete"; content: string } | { status: "failed"; reason: string };

/** The command to run: the setting, else $VISUAL, $EDITOR, and finally nano (notepad on Windows). */
export function externalEditorCommand(setting?: string): string {
	return setting || process.env.VISUAL || process.env.EDITOR || (process.platform === "win32" ? "notepad" : "nano");
}

export async function editInExternalEditor(options: {
	command: string;
	content: string;
	/** Where the notice before the editor starts goes (default: stdout). */
	write?: (text: string) => void;
}): Promise<ExternalEditResult> {
	const fs = nodeFs();
	const directory = fs.mkdtempSync(`${os().tmpdir()}/pi-editor-`);
	const file = `${directory}/prompt.md`;
	try {
		fs.writeFileSync(file, options.content, "utf8");
		const [program = "", ...args] = options.command.split(" ").filter(Boolean);
		const write = options.write ?? ((text: string) => process.stdout.write(text));
		write(`Launching external editor: ${options.command}\nPi will resume when the editor exits.\n`);
		const exit = await new Promise<{ code: number | null; error?: string }>((resolve) => {
			const child = childProcess().spawn(program, [...args, file], {
				stdio: "inherit",
				shell: process.platform === "win32",
			});
			child.on("error", (error) => resolve({ code: null, error: error.message }));
			child.on("close", (code) => resolve({ code }));
		});
		if (exit.code !== 0)
			return { status: "failed", reason: exit.error ?? `${program} exited with code ${exit.code ?? "unknown"}` };
		const text = fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
		return { status: "complete", content: text.replace(/\n$/, "") };
	} finally {
		try {
			fs.rmSync(directory, { recursive: true, force: true });
		} catch {
			// best effort
		}
	}
}
