/**
 * Inside tmux (TMUX set), modified Enter keys (Shift+Enter, Alt+Enter) reach the app only with tmux's extended keys
 * on, and best in the csi-u format. The options are read with `tmux show -gv` (2 s at most each); a tmux that
 * cannot be asked gives no warning.
 */
import { childProcess } from "../../../util/index.ts";

function tmuxOption(name: string): Promise<string | undefined> {
	return new Promise((resolve) => {
		let out = "";
		let child: ReturnType<ReturnType<typeof childProcess>["spawn"]>;
		try {
			child = childProcess().spawn("tmux", ["show", "-gv", name], { stdio: ["ignore", "pipe", "ignore"] });
		} catch {
			resolve(undefined);
			return;
		}
		const timer = setTimeout(() => {
			child.kill();
			resolve(undefined);
		}, 2000);
		child.stdout?.on("data", (chunk: Buffer) => {
			out += chunk.toString();
		});
		child.on("error", () => {
			clearTimeout(timer);
			resolve(undefined);
		});
		child.on("close", (code: number | null) => {
			clearTimeout(timer);
			resolve(code === 0 ? out.trim() : undefined);
		});
	});
}

/** The warning to show, or undefined (not in tmux, tmux set up well, or tmux not answering). */
export async function tmuxKeyboardWarning(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
	if (!env.TMUX) return undefined;
	const [keys, format] = await Promise.all([tmuxOption("extended-keys"), tmuxOption("extended-keys-format")]);
	if (keys === undefined) return undefined;
	if (keys !== "on" && keys !== "always") {
		return "tmux has extended-keys off, so Shift+Enter and other modified Enter keys may not arrive. Put `set -g extended-keys on` in ~/.tmux.conf and restart tmux.";
	}
	if (format === "xterm") {
		return "tmux sends extended keys in the xterm format; csi-u works better. Put `set -g extended-keys-format csi-u` in ~/.tmux.conf and restart tmux.";
	}
	return undefined;
}
