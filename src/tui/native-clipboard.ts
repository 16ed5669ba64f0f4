/**
 * `getNativeClipboard()`: reading (and on macOS and Windows writing) the system clipboard. pi loads a native addon
 * for this; ours drives the tools the OS already has — `xclip` (or `xsel`, text only) under X11, `pbpaste`/`pbcopy`
 * and AppKit through `osascript` on macOS, PowerShell on Windows — with the same interface and the same
 * answers: `undefined` means the clipboard cannot be reached (no display, no tool), `null` means it holds no text or
 * no image, and a transfer that breaks or stalls rejects. Nothing runs until a method is called, so asking for
 * the clipboard on a machine without these tools costs nothing and never throws.
 *
 * Like pi: on Linux only with an X11 `DISPLAY` (Wayland-only sessions get undefined; the coding agent reads those
 * with `wl-paste` itself) and without `setText` (Linux writers must keep running to own the selection, so writes
 * go through the coding agent's own clipboard commands); on platforms other than Linux, macOS and Windows, none.
 */
import { childProcess } from "../util/index.ts";

export interface NativeClipboard {
	/** Undefined means unavailable, null means no text; transfer failures reject. */
	getText(): Promise<string | null | undefined>;
	/** Undefined means unavailable, null means no image; transfer failures reject. */
	getImage(): Promise<Uint8Array | null | undefined>;
	/** Absent on Linux, whose writers must keep running to own the selection (the coding agent runs them). */
	setText?(text: string): Promise<void>;
}

/** How a clipboard command ended. */
export type CommandOutcome =
	| { type: "missing" }
	| { type: "timeout" }
	| { type: "exited"; code: number; stdout: Buffer; stderr: string };

export type Env = Record<string, string | undefined>;

/** Runs one command with an optional stdin text; never rejects. */
export function runCommand(
	command: string,
	args: string[],
	options: { env: Env; timeoutMs: number; input?: string | Buffer },
): Promise<CommandOutcome> {
	return new Promise((resolve) => {
		let child: ReturnType<ReturnType<typeof childProcess>["spawn"]>;
		try {
			child = childProcess().spawn(command, args, {
				env: options.env as NodeJS.ProcessEnv,
				stdio: ["pipe", "pipe", "pipe"],
				windowsHide: true,
			});
		} catch {
			resolve({ type: "missing" });
			return;
		}
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let settled = false;
		const finish = (outcome: CommandOutcome) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(outcome);
		};
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			finish({ type: "timeout" });
		}, options.timeoutMs);
		// Spawn failures (not installed, not executable) arrive as an error event before any exit.
		child.on("error", () => finish({ type: "missing" }));
		child.on("close", (code) =>
			finish({
				type: "exited",
				code: code ?? -1,
				stdout: Buffer.concat(stdout),
				stderr: Buffer.concat(stderr).toString("utf8"),
			}),
		);
		child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
		child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
		child.stdin?.on("error", () => {
			// The command may exit without reading its input; its exit code decides.
		});
		child.stdin?.end(options.input ?? "");
	});
}

export type RunCommand = typeof runCommand;

/** X11 targets in the order pi's helper prefers them. */
const X11_TEXT_TYPES = ["text/plain;charset=utf-8", "text/plain;charset=UTF-8", "UTF8_STRING", "text/plain", "STRING"];
const X11_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/bmp", "image/tiff"];
/** X11 reads give up after two seconds, as pi's helper does. */
const X11_TIMEOUT_MS = 2000;
const DESKTOP_TIMEOUT_MS = 5000;

const cannotOpenDisplay = (stderr: string) => /can'?t open display|cannot open display/i.test(stderr);

function x11ReadFailed(): Error {
	return new Error("Could not read X11 clipboard");
}

/** The X11 CLIPBOARD selection through `xclip`, or `xsel` for text when xclip is not installed. */
function x11Clipboard(env: Env, run: RunCommand): NativeClipboard {
	const xclip = (args: string[]) =>
		run("xclip", ["-selection", "clipboard", ...args, "-o"], { env, timeoutMs: X11_TIMEOUT_MS });

	/** The first wanted target the owner offers; null when it offers none of them, undefined when unreachable. */
	async function pickTarget(wanted: string[], text: boolean): Promise<string | null | undefined | "missing"> {
		const listed = await xclip(["-t", "TARGETS"]);
		if (listed.type === "missing") return "missing";
		if (listed.type === "timeout") throw x11ReadFailed();
		if (listed.code !== 0) return cannotOpenDisplay(listed.stderr) ? undefined : null;
		const offered = new Set(
			listed.stdout
				.toString("utf8")
				.split(/\r?\n/)
				.map((line) => line.trim())
				.filter(Boolean),
		);
		const found = wanted.find((type) => offered.has(type));
		if (found) return found;
		// Some owners do not list targets but still hand out text.
		return text && offered.size === 0 ? "UTF8_STRING" : null;
	}

	async function xselText(): Promise<string | null | undefined> {
		const read = await run("xsel", ["--clipboard", "--output"], { env, timeoutMs: X11_TIMEOUT_MS });
		if (read.type === "missing") return undefined;
		if (read.type === "timeout") throw x11ReadFailed();
		if (read.code !== 0) {
			if (cannotOpenDisplay(read.stderr)) return undefined;
			throw x11ReadFailed();
		}
		return read.stdout.toString("utf8") || null;
	}

	return {
		async getText() {
			const target = await pickTarget(X11_TEXT_TYPES, true);
			if (target === "missing") return xselText();
			if (target === undefined || target === null) return target;
			const read = await xclip(["-t", target]);
			if (read.type !== "exited" || read.code !== 0) throw x11ReadFailed();
			return read.stdout.toString(target === "STRING" ? "latin1" : "utf8") || null;
		},
		async getImage() {
			const target = await pickTarget(X11_IMAGE_TYPES, false);
			if (target === "missing" || target === undefined) return undefined;
			if (target === null) return null;
			const read = await xclip(["-t", target]);
			if (read.type !== "exited" || read.code !== 0) throw x11ReadFailed();
			return read.stdout.length > 0 ? new Uint8Array(read.stdout) : null;
		},
	};
}

/**
 * AppKit through JavaScript for Automation: the pasteboard's PNG, or its TIFF converted to PNG (as pi's helper
 * does), as base64; an empty result when it holds neither.
 */
const MAC_IMAGE_SCRIPT = `ObjC.import("AppKit");
const board = $.NSPasteboard.generalPasteboard;
let png = board.dataForType($.NSPasteboardTypePNG);
if (png.isNil()) {
	const tiff = board.dataForType($.NSPasteboardTypeTIFF);
	const bitmap = tiff.isNil() ? tiff : $.NSBitmapImageRep.imageRepWithData(tiff);
	png = bitmap.isNil() ? bitmap : bitmap.representationUsingTypeProperties($.NSBitmapImageFileTypePNG, $({}));
}
png.isNil() ? "" : png.base64EncodedStringWithOptions(0).js;`;

/** pbcopy and pbpaste pick their text encoding from LANG: make it UTF-8. */
function utf8Locale(env: Env): Env {
	return /utf-?8/i.test(env.LANG ?? "") ? env : { ...env, LANG: "en_US.UTF-8" };
}

function macClipboard(env: Env, run: RunCommand): NativeClipboard {
	return {
		async getText() {
			const read = await run("pbpaste", [], { env: utf8Locale(env), timeoutMs: DESKTOP_TIMEOUT_MS });
			if (read.type === "missing") return undefined;
			if (read.type !== "exited" || read.code !== 0) throw new Error("Could not open clipboard");
			return read.stdout.toString("utf8") || null;
		},
		async getImage() {
			const read = await run("osascript", ["-l", "JavaScript", "-e", MAC_IMAGE_SCRIPT], {
				env,
				timeoutMs: DESKTOP_TIMEOUT_MS,
			});
			if (read.type === "missing") return undefined;
			if (read.type !== "exited" || read.code !== 0) throw new Error("Could not open clipboard");
			const base64 = read.stdout.toString("utf8").trim();
			return base64 ? new Uint8Array(Buffer.from(base64, "base64")) : null;
		},
		async setText(text: string) {
			const wrote = await run("pbcopy", [], { env: utf8Locale(env), timeoutMs: DESKTOP_TIMEOUT_MS, input: text });
			if (wrote.type !== "exited" || wrote.code !== 0) throw new Error("Could not set clipboard text");
		},
	};
}

/** Exit status the Windows scripts use for "nothing of that kind on the clipboard". */
const EMPTY_EXIT = 3;
const PS_UTF8_OUT = "[Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false";
const WINDOWS_TEXT_SCRIPT = `${PS_UTF8_OUT}; $t = Get-Clipboard -Raw; if ($null -eq $t -or $t.Length -eq 0) { exit ${EMPTY_EXIT} }; [Console]::Out.Write($t)`;
const WINDOWS_IMAGE_SCRIPT = [
	"Add-Type -AssemblyName System.Windows.Forms",
	"Add-Type -AssemblyName System.Drawing",
	`if (-not [System.Windows.Forms.Clipboard]::ContainsImage()) { exit ${EMPTY_EXIT} }`,
	"$img = [System.Windows.Forms.Clipboard]::GetImage()",
	`if ($null -eq $img) { exit ${EMPTY_EXIT} }`,
	"$ms = New-Object System.IO.MemoryStream",
	"$img.Save($ms, [System.Drawing.Imaging.ImageFormat]::Png)",
	"[Console]::Out.Write([Convert]::ToBase64String($ms.ToArray()))",
].join("; ");
/** The text arrives as base64 on stdin, so no console code page can mangle it. */
const WINDOWS_SET_SCRIPT = [
	"$t = [System.Text.Encoding]::UTF8.GetString([Convert]::FromBase64String([Console]::In.ReadToEnd().Trim()))",
	"if ($t.Length -eq 0) { Add-Type -AssemblyName System.Windows.Forms; [System.Windows.Forms.Clipboard]::Clear() } else { Set-Clipboard -Value $t }",
].join("; ");

function windowsClipboard(env: Env, run: RunCommand): NativeClipboard {
	const powershell = (script: string, input?: string) =>
		run("powershell.exe", ["-NoProfile", "-NonInteractive", "-Command", script], {
			env,
			timeoutMs: DESKTOP_TIMEOUT_MS,
			input,
		});
	return {
		async getText() {
			const read = await powershell(WINDOWS_TEXT_SCRIPT);
			if (read.type === "missing") return undefined;
			if (read.type === "exited" && read.code === EMPTY_EXIT) return null;
			if (read.type !== "exited" || read.code !== 0) throw new Error("Could not open clipboard");
			return read.stdout.toString("utf8").replace(/^\uFEFF/, "") || null;
		},
		async getImage() {
			const read = await powershell(WINDOWS_IMAGE_SCRIPT);
			if (read.type === "missing") return undefined;
			if (read.type === "exited" && read.code === EMPTY_EXIT) return null;
			if (read.type !== "exited" || read.code !== 0) throw new Error("Clipboard does not contain an image");
			const base64 = read.stdout.toString("utf8").trim();
			return base64 ? new Uint8Array(Buffer.from(base64, "base64")) : null;
		},
		async setText(text: string) {
			const wrote = await powershell(WINDOWS_SET_SCRIPT, Buffer.from(text, "utf8").toString("base64"));
			if (wrote.type === "exited" && wrote.code === 0) return;
			// Without PowerShell, clip.exe takes UTF-16 text marked by its byte-order mark.
			if (wrote.type === "missing") {
				const input = Buffer.from(`\uFEFF${text}`, "utf16le");
				const clip = await run("clip.exe", [], { env, timeoutMs: DESKTOP_TIMEOUT_MS, input });
				if (clip.type === "exited" && clip.code === 0) return;
			}
			throw new Error("Could not set clipboard text");
		},
	};
}

/**
 * The clipboard for `platform` under `env` (the tools are looked up on its PATH when a method runs); undefined where
 * pi has none: Linux without `DISPLAY`, platforms other than Linux, macOS and Windows.
 */
export function createNativeClipboard(
	platform: NodeJS.Platform,
	env: Env,
	run: RunCommand = runCommand,
): NativeClipboard | undefined {
	if (platform === "linux") return env.DISPLAY ? x11Clipboard(env, run) : undefined;
	if (platform === "darwin") return macClipboard(env, run);
	if (platform === "win32") return windowsClipboard(env, run);
	return undefined;
}

let shared: NativeClipboard | undefined;

/** The system clipboard, or undefined where it cannot be reached (see the file comment). */
export function getNativeClipboard(): NativeClipboard | undefined {
	// The display is checked on every call (it can come and go); the tools only when a method runs.
	if (process.platform === "linux" && !process.env.DISPLAY) return undefined;
	shared ??= createNativeClipboard(process.platform, process.env);
	return shared;
}
