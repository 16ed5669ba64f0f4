/**
 * grep through ripgrep: `rg --json` events are parsed line by line and fed to the same sink as our own search;
 * rg is killed as soon as the sink has enough.
 */
import { childProcess } from "../util/index.ts";
import type { GrepSearch } from "./grep-native.ts";

const STDERR_LIMIT = 16 * 1024;

interface RgText {
	text?: string;
	bytes?: string;
}

function rgText(value: RgText | undefined): string {
	if (!value) return "";
	if (typeof value.text === "string") return value.text;
	return value.bytes ? Buffer.from(value.bytes, "base64").toString("utf8") : "";
}

export function ripgrepArgs(search: GrepSearch): string[] {
	const args = ["--json", "--line-number", "--color=never", "--hidden", "--no-require-git"];
	if (search.ignoreCase) args.push("--ignore-case");
	if (search.literal) args.push("--fixed-strings");
	if (search.glob) args.push("--glob", search.glob);
	// Like our own walker: never search inside .git (rg --hidden would).
	args.push("--glob", "!.git");
	if (search.context > 0) args.push("-C", String(search.context));
	args.push("--", search.pattern, search.searchPath);
	return args;
}

export async function grepRipgrep(rgPath: string, search: GrepSearch): Promise<void> {
	const child = childProcess().spawn(rgPath, ripgrepArgs(search), { stdio: ["ignore", "pipe", "pipe"] });
	let stopped = false;
	let hits = 0;
	let stderr = "";
	const stop = () => {
		if (stopped) return;
		stopped = true;
		child.kill("SIGKILL");
	};
	search.signal?.addEventListener("abort", stop, { once: true });
	child.stderr.on("data", (data: Buffer) => {
		if (stderr.length < STDERR_LIMIT) stderr += data.toString("utf8");
	});
	onLines(child.stdout, (line) => {
		if (stopped) return;
		let event: { type?: string; data?: any };
		try {
			event = JSON.parse(line);
		} catch {
			// Not a JSON event (should not happen with --json): ignore the line.
			return;
		}
		if (event.type === "match" || event.type === "context") {
			hits++;
			const text = rgText(event.data?.lines).replace(/\r?\n$/, "");
			const hit = {
				file: rgText(event.data?.path),
				line: Number(event.data?.line_number ?? 0),
				text,
				isMatch: event.type === "match",
			};
			if (!search.onHit(hit)) stop();
		} else if (event.type === "end" && search.finished()) {
			stop();
		}
	});
	const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
		child.once("error", (error) => resolve({ code: null, error }));
		child.once("close", (code) => resolve({ code }));
	});
	search.signal?.removeEventListener("abort", stop);
	if (search.signal?.aborted) throw new Error("Operation aborted");
	if (exit.error) throw exit.error;
	if (stopped || exit.code === 0 || exit.code === 1) return;
	// Exit 2 also reports unreadable files next to real results; only fail when nothing was found.
	if (hits === 0) throw new Error(stderr.trim() || `ripgrep exited with code ${exit.code}`);
}

/**
 * Calls `onLine` for each LF-terminated line of `stream` (a trailing CR is kept: rg's JSON lines never end in one),
 * and for a last line without LF at the end. Written here rather than with node:readline, whose module alone
 * adds ~10 ms to every start of the binary (builtin imports are loaded at start-up).
 */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
	let pending = "";
	stream.setEncoding("utf8");
	stream.on("data", (chunk: string) => {
		const text = pending + chunk;
		let start = 0;
		for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
			onLine(text.slice(start, newline));
			start = newline + 1;
		}
		pending = text.slice(start);
	});
	stream.on("end", () => {
		if (pending !== "") onLine(pending);
		pending = "";
	});
}
