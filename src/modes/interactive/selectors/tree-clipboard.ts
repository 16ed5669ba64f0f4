/**
 * Copying text to the clipboard as pi 0.87.1 does: the native clipboard off Linux, then the platform's commands
 * (`pbcopy`, `clip`, `termux-clipboard-set`, `wl-copy`, `xclip`, `xsel`), and OSC 52 through the terminal in a
 * remote session or where nothing else reached a clipboard on a machine without a display. Failures are one line.
 */
import { getNativeClipboard } from "../../../tui/index.ts";
import { childProcess } from "../../../util/index.ts";

const MAX_OSC52 = 100_000;

function run(command: string, args: string[], input: string): Promise<boolean> {
	return new Promise((resolve) => {
		try {
			const child = childProcess().spawn(command, args, { stdio: ["pipe", "ignore", "ignore"] });
			const timer = setTimeout(() => {
				child.kill();
				resolve(false);
			}, 5000);
			child.on("error", () => {
				clearTimeout(timer);
				resolve(false);
			});
			child.on("close", (code) => {
				clearTimeout(timer);
				resolve(code === 0);
			});
			child.stdin?.on("error", () => {});
			child.stdin?.end(input);
		} catch {
			resolve(false);
		}
	});
}

/** Copies `text`; `writeTerminal` sends OSC 52. Throws an Error with a one-line reason when no route worked. */
export async function copyToClipboard(
	text: string,
	writeTerminal: (data: string) => void,
	env: Record<string, string | undefined> = process.env,
	platform: string = process.platform,
): Promise<void> {
	let copied = false;
	if (platform !== "linux") {
		try {
			const native = getNativeClipboard();
			if (native?.setText) {
				await native.setText(text);
				copied = true;
			}
		} catch {
			// fall through to the commands
		}
	}
	if (!copied) {
		const commands: [string, string[]][] = [];
		if (platform === "darwin") commands.push(["pbcopy", []]);
		else if (platform === "win32") commands.push(["clip", []]);
		else {
			if (env.TERMUX_VERSION) commands.push(["termux-clipboard-set", []]);
			if (env.WAYLAND_DISPLAY) commands.push(["wl-copy", []]);
			if (env.DISPLAY) commands.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
		}
		for (const [command, args] of commands) {
			if (await run(command, args, text)) {
				copied = true;
				break;
			}
		}
	}
	const remote = Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.MOSH_CONNECTION);
	const headless = platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY && !env.TERMUX_VERSION;
	let oversized = false;
	if (remote || (!copied && headless)) {
		const encoded = Buffer.from(text).toString("base64");
		if (encoded.length <= MAX_OSC52) {
			writeTerminal(`\x1b]52;c;${encoded}\x07`);
			copied = true;
		} else oversized = true;
	}
	if (copied) return;
	if (oversized) throw new Error("Clipboard unavailable: text exceeds the OSC 52 size limit");
	if (platform === "linux") {
		if (env.TERMUX_VERSION)
			throw new Error("Clipboard unavailable: install the Termux:API app and `termux-api` package");
		if (env.WAYLAND_DISPLAY)
			throw new Error("Clipboard unavailable: install `wl-clipboard` (`wl-copy`) or check Wayland access");
		if (env.DISPLAY) throw new Error("Clipboard unavailable: install `xclip` or `xsel`, or check X11 access");
	}
	throw new Error("Clipboard unavailable");
}
