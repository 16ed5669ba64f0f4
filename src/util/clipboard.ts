/**
 * `copyToClipboard(text)`: the platform's clipboard command (pbcopy on macOS, clip on Windows; on Linux
 * termux-clipboard-set, wl-copy under Wayland, xclip or xsel under X11), then OSC 52 — the terminal's own
 * clipboard escape — where no command could be used: remote (ssh/mosh) sessions always, headless Linux and WSL
 * when nothing else worked. Rejects with a one-line reason saying what to install when nothing reached a clipboard.
 */
import { childProcess, fsPromises, os } from "./builtins.ts";
import { readFileSync } from "./fs.ts";
import { writeStdout } from "./stdio.ts";
import { uuidv7 } from "./uuid.ts";

const MAX_OSC52_BASE64 = 100_000;

type Env = Record<string, string | undefined>;

/** Runs a clipboard command; resolves its stdout, or undefined when it failed, was missing or timed out. */
function runClipboardCommand(
	command: string,
	args: string[],
	options: { input?: string; timeoutMs: number },
): Promise<Buffer | undefined> {
	return new Promise((resolve) => {
		let child: ReturnType<ReturnType<typeof childProcess>["spawn"]>;
		try {
			// A clipboard writer may stay behind as a daemon: give it no output pipe to hold open.
			child = childProcess().spawn(command, args, {
				stdio: ["pipe", options.input === undefined ? "pipe" : "ignore", "ignore"],
				windowsHide: true,
			});
		} catch {
			resolve(undefined);
			return;
		}
		const chunks: Buffer[] = [];
		let done = false;
		const finish = (result: Buffer | undefined) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			resolve(result);
		};
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			finish(undefined);
		}, options.timeoutMs);
		child.on("error", () => finish(undefined));
		child.on("close", (code) => finish(code === 0 ? Buffer.concat(chunks) : undefined));
		child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
		child.stdin?.on("error", () => {
			// The writer may exit before reading everything; its exit code decides.
		});
		child.stdin?.end(options.input);
	});
}

function isWsl(env: Env): boolean {
	if (env.WSL_DISTRO_NAME || env.WSLENV) return true;
	try {
		return /microsoft|wsl/i.test(readFileSync("/proc/version", "utf8"));
	} catch {
		return false;
	}
}

function emitOsc52(text: string): boolean {
	const encoded = Buffer.from(text).toString("base64");
	if (encoded.length > MAX_OSC52_BASE64) return false;
	writeStdout(`\x1b]52;c;${encoded}\x07`);
	return true;
}

/** WSL without a Linux display: PowerShell sets the Windows clipboard from a UTF-8 file (pipes lose non-ASCII). */
async function copyViaWindows(text: string): Promise<boolean> {
	const file = `${os().tmpdir()}/pi-wsl-clip-${uuidv7()}.txt`;
	try {
		await fsPromises().writeFile(file, text, { encoding: "utf8", mode: 0o600 });
		const winPath = (await runClipboardCommand("wslpath", ["-w", file], { timeoutMs: 1000 }))?.toString("utf8").trim();
		if (!winPath) return false;
		const script = `Set-Clipboard -Value ([System.IO.File]::ReadAllText('${winPath.replaceAll("'", "''")}', [System.Text.Encoding]::UTF8))`;
		return (
			(await runClipboardCommand("powershell.exe", ["-NoProfile", "-Command", script], { timeoutMs: 5000 })) !==
			undefined
		);
	} catch {
		return false;
	} finally {
		await fsPromises()
			.unlink(file)
			.catch(() => {
				// Never written.
			});
	}
}

function clipboardCommands(platform: string, env: Env): [string, string[]][] {
	if (platform === "darwin") return [["pbcopy", []]];
	if (platform === "win32") return [["clip", []]];
	const commands: [string, string[]][] = [];
	if (env.TERMUX_VERSION) commands.push(["termux-clipboard-set", []]);
	if (env.WAYLAND_DISPLAY) commands.push(["wl-copy", []]);
	if (env.DISPLAY) commands.push(["xclip", ["-selection", "clipboard"]], ["xsel", ["--clipboard", "--input"]]);
	return commands;
}

export async function copyToClipboard(text: string): Promise<void> {
	const platform = process.platform;
	const env = process.env as Env;
	let copied = false;
	for (const [command, args] of clipboardCommands(platform, env)) {
		if ((await runClipboardCommand(command, args, { input: text, timeoutMs: 5000 })) !== undefined) {
			copied = true;
			break;
		}
	}
	let osc52Sent = false;
	if (!copied && platform === "linux" && isWsl(env)) {
		// Windows Terminal understands OSC 52, which is quicker than a PowerShell round trip.
		if (env.WT_SESSION) osc52Sent = emitOsc52(text);
		copied = osc52Sent || (await copyViaWindows(text));
	}
	// OSC 52 cannot be confirmed: a desktop session that failed reports it, while headless Linux (containers) and
	// remote sessions, whose clipboard is the client terminal's, send it.
	const remote = Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.MOSH_CONNECTION);
	const headless = platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY && !env.TERMUX_VERSION;
	let tooLarge = false;
	if (!osc52Sent && (remote || (!copied && headless))) {
		if (emitOsc52(text)) copied = true;
		else tooLarge = true;
	}
	if (copied) return;
	if (tooLarge) throw new Error("Clipboard unavailable: text exceeds the OSC 52 size limit");
	if (platform === "linux") {
		if (env.TERMUX_VERSION)
			throw new Error("Clipboard unavailable: install the Termux:API app and `termux-api` package");
		if (env.WAYLAND_DISPLAY) {
			throw new Error("Clipboard unavailable: install `wl-clipboard` (`wl-copy`) or check Wayland access");
		}
		if (env.DISPLAY) throw new Error("Clipboard unavailable: install `xclip` or `xsel`, or check X11 access");
	}
	throw new Error("Clipboard unavailable");
}
