/**
 * `getNativeClipboard()` without native code: the clipboard object drives the OS's own tools, here stub scripts on
 * a PATH of the test's making (no real clipboard or display is touched). Covers the answers pi's helper gives —
 * undefined when unreachable, null when empty, a rejection when a transfer fails — on Linux (xclip, xsel), macOS
 * (pbpaste, pbcopy, osascript) and Windows (powershell.exe, clip.exe) shapes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createNativeClipboard, getNativeClipboard } from "../../../src/tui/native-clipboard.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 0]);

/** A folder of executable shell scripts `{ name: body }` and a PATH with only it and the basic tools. */
function stubs(scripts: Record<string, string>): { dir: string; PATH: string } {
	const dir = makeTempDir("pi-clip-stubs-");
	for (const [name, body] of Object.entries(scripts)) {
		writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
		chmodSync(join(dir, name), 0o755);
	}
	return { dir, PATH: `${dir}:/usr/bin:/bin` };
}

/** An xclip stand-in offering `targets` and serving files `<dir>/<target>` (dir is the stub folder). */
function xclipStub(targets: string[]): string {
	return `dir=$(dirname "$0")
log="$dir/calls"; echo "$*" >> "$log"
target=""
while [ $# -gt 0 ]; do case "$1" in -t) target="$2"; shift;; esac; shift; done
if [ "$target" = "TARGETS" ]; then printf '${targets.join("\\n")}\\n'; exit 0; fi
file="$dir/$(printf %s "$target" | tr '/;=' '___')"
[ -f "$file" ] || { echo "Error: target $target not available" >&2; exit 1; }
cat "$file"`;
}

const fileFor = (dir: string, target: string) => join(dir, target.replace(/[/;=]/g, "_"));

describe("getNativeClipboard on this machine", () => {
	const saved = process.env.DISPLAY;
	afterEach(() => {
		if (saved === undefined) delete process.env.DISPLAY;
		else process.env.DISPLAY = saved;
	});
	test("is undefined on Linux without an X11 display, an object with it, and never throws", async () => {
		if (process.platform !== "linux") return;
		delete process.env.DISPLAY;
		expect(getNativeClipboard()).toBeUndefined();
		process.env.DISPLAY = ":99";
		const clipboard = getNativeClipboard();
		expect(typeof clipboard?.getText).toBe("function");
		expect(typeof clipboard?.getImage).toBe("function");
		expect(clipboard?.setText).toBeUndefined();
	});
	test("other platforms have none", () => {
		expect(createNativeClipboard("freebsd", { DISPLAY: ":0" })).toBeUndefined();
		expect(createNativeClipboard("linux", {})).toBeUndefined();
		expect(createNativeClipboard("linux", { WAYLAND_DISPLAY: "wayland-0" })).toBeUndefined();
	});
});

describe("Linux (X11)", () => {
	test("reads text through the preferred target xclip offers, and an image as bytes", async () => {
		const { dir, PATH } = stubs({ xclip: xclipStub(["TARGETS", "STRING", "UTF8_STRING", "image/jpeg", "image/png"]) });
		writeFileSync(fileFor(dir, "UTF8_STRING"), "héllo\n");
		writeFileSync(fileFor(dir, "STRING"), "wrong");
		writeFileSync(fileFor(dir, "image/png"), PNG);
		const clipboard = createNativeClipboard("linux", { DISPLAY: ":0", PATH });
		expect(await clipboard?.getText()).toBe("héllo\n");
		expect(Buffer.from((await clipboard?.getImage()) as Uint8Array)).toEqual(PNG);
		const calls = readFileSync(join(dir, "calls"), "utf8");
		expect(calls).toContain("-selection clipboard -t UTF8_STRING -o");
		expect(calls).toContain("-selection clipboard -t image/png -o");
	});
	test("STRING is read as Latin-1", async () => {
		const { dir, PATH } = stubs({ xclip: xclipStub(["STRING"]) });
		writeFileSync(fileFor(dir, "STRING"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
		expect(await createNativeClipboard("linux", { DISPLAY: ":0", PATH })?.getText()).toBe("café");
	});
	test("null when the owner offers no text or no image, or the clipboard is empty", async () => {
		const { dir, PATH } = stubs({ xclip: xclipStub(["TARGETS", "image/png"]) });
		writeFileSync(fileFor(dir, "image/png"), "");
		const clipboard = createNativeClipboard("linux", { DISPLAY: ":0", PATH });
		expect(await clipboard?.getText()).toBeNull();
		expect(await clipboard?.getImage()).toBeNull();
		const noOwner = stubs({ xclip: "echo 'Error: target TARGETS not available' >&2; exit 1" });
		expect(await createNativeClipboard("linux", { DISPLAY: ":0", PATH: noOwner.PATH })?.getText()).toBeNull();
	});
	test("an owner that lists no targets still hands out UTF8_STRING text", async () => {
		const { dir, PATH } = stubs({ xclip: xclipStub([]) });
		writeFileSync(fileFor(dir, "UTF8_STRING"), "plain");
		expect(await createNativeClipboard("linux", { DISPLAY: ":0", PATH })?.getText()).toBe("plain");
	});
	test("undefined when the display cannot be opened or no tool is installed", async () => {
		const noDisplay = stubs({ xclip: 'echo "Error: Can\'t open display: :0" >&2; exit 1' });
		const clipboard = createNativeClipboard("linux", { DISPLAY: ":0", PATH: noDisplay.PATH });
		expect(await clipboard?.getText()).toBeUndefined();
		expect(await clipboard?.getImage()).toBeUndefined();
		const none = stubs({});
		const bare = createNativeClipboard("linux", { DISPLAY: ":0", PATH: none.PATH });
		expect(await bare?.getText()).toBeUndefined();
		expect(await bare?.getImage()).toBeUndefined();
	});
	test("xsel serves text when xclip is missing (images need xclip)", async () => {
		const { PATH } = stubs({ xsel: 'case "$*" in "--clipboard --output") printf "from xsel";; *) exit 2;; esac' });
		const clipboard = createNativeClipboard("linux", { DISPLAY: ":0", PATH });
		expect(await clipboard?.getText()).toBe("from xsel");
		expect(await clipboard?.getImage()).toBeUndefined();
		const empty = stubs({ xsel: "exit 0" });
		expect(await createNativeClipboard("linux", { DISPLAY: ":0", PATH: empty.PATH })?.getText()).toBeNull();
	});
	test("a failed transfer rejects", async () => {
		const { PATH } = stubs({
			xclip: 'case "$*" in *TARGETS*) echo UTF8_STRING; echo image/png;; *) echo "Error: broken" >&2; exit 1;; esac',
		});
		const clipboard = createNativeClipboard("linux", { DISPLAY: ":0", PATH });
		await expect(clipboard?.getText() as Promise<unknown>).rejects.toThrow("Could not read X11 clipboard");
		await expect(clipboard?.getImage() as Promise<unknown>).rejects.toThrow("Could not read X11 clipboard");
	});
	test("a stalled transfer rejects after the two-second limit", async () => {
		const { PATH } = stubs({ xclip: "exec sleep 30" });
		const started = Date.now();
		await expect(
			createNativeClipboard("linux", { DISPLAY: ":0", PATH })?.getText() as Promise<unknown>,
		).rejects.toThrow("Could not read X11 clipboard");
		expect(Date.now() - started).toBeLessThan(5000);
	});
});

describe("macOS", () => {
	test("reads and writes text with pbpaste and pbcopy in UTF-8, and reads a PNG through osascript", async () => {
		const { dir, PATH } = stubs({
			pbpaste: 'dir=$(dirname "$0"); echo "$LANG" > "$dir/lang"; cat "$dir/board" 2>/dev/null; exit 0',
			pbcopy: 'dir=$(dirname "$0"); cat > "$dir/board"',
			osascript: `[ "$1 $2" = "-l JavaScript" ] || exit 9; echo ${PNG.toString("base64")}`,
		});
		const clipboard = createNativeClipboard("darwin", { PATH, LANG: "C" });
		expect(await clipboard?.getText()).toBeNull();
		await clipboard?.setText?.("ünïcode ✓");
		expect(readFileSync(join(dir, "board"), "utf8")).toBe("ünïcode ✓");
		expect(await clipboard?.getText()).toBe("ünïcode ✓");
		expect(readFileSync(join(dir, "lang"), "utf8").trim()).toBe("en_US.UTF-8");
		expect(Buffer.from((await clipboard?.getImage()) as Uint8Array)).toEqual(PNG);
	});
	test("no image is null; missing tools are undefined for reads and a rejection for writes", async () => {
		const { PATH } = stubs({ osascript: "echo" });
		const clipboard = createNativeClipboard("darwin", { PATH });
		expect(await clipboard?.getImage()).toBeNull();
		expect(await clipboard?.getText()).toBeUndefined();
		await expect(clipboard?.setText?.("x") as Promise<void>).rejects.toThrow("Could not set clipboard text");
		const none = createNativeClipboard("darwin", { PATH: stubs({}).PATH });
		expect(await none?.getImage()).toBeUndefined();
	});
	test("a failing pbpaste rejects", async () => {
		const { PATH } = stubs({ pbpaste: "exit 1" });
		await expect(createNativeClipboard("darwin", { PATH })?.getText() as Promise<unknown>).rejects.toThrow();
	});
});

describe("Windows", () => {
	/** powershell.exe stand-in: keeps the board in files; its last argument is the script. */
	const powershell = `dir=$(dirname "$0")
for last; do :; done
case "$last" in
*Get-Clipboard*) [ -s "$dir/board" ] || exit 3; cat "$dir/board";;
*FromBase64String*) base64 -d > "$dir/board";;
*ContainsImage*) [ -f "$dir/image" ] || exit 3; cat "$dir/image";;
*) exit 7;;
esac`;
	test("text round-trips through PowerShell (base64 on stdin), empty is null, an image comes back as PNG bytes", async () => {
		const { dir, PATH } = stubs({ "powershell.exe": powershell });
		const clipboard = createNativeClipboard("win32", { PATH });
		expect(await clipboard?.getText()).toBeNull();
		expect(await clipboard?.getImage()).toBeNull();
		await clipboard?.setText?.("naïve ☃ text");
		expect(readFileSync(join(dir, "board"), "utf8")).toBe("naïve ☃ text");
		expect(await clipboard?.getText()).toBe("naïve ☃ text");
		writeFileSync(join(dir, "image"), PNG.toString("base64"));
		expect(Buffer.from((await clipboard?.getImage()) as Uint8Array)).toEqual(PNG);
	});
	test("without PowerShell: reads are undefined, writes go to clip.exe as UTF-16 with a byte-order mark", async () => {
		const { dir, PATH } = stubs({ "clip.exe": 'cat > "$(dirname "$0")/clip"' });
		const clipboard = createNativeClipboard("win32", { PATH });
		expect(await clipboard?.getText()).toBeUndefined();
		expect(await clipboard?.getImage()).toBeUndefined();
		await clipboard?.setText?.("ok ✓");
		expect(existsSync(join(dir, "clip"))).toBe(true);
		expect(readFileSync(join(dir, "clip"))).toEqual(Buffer.from("\uFEFFok ✓", "utf16le"));
	});
	test("a failing PowerShell read or write rejects", async () => {
		const { PATH } = stubs({ "powershell.exe": "exit 1" });
		const clipboard = createNativeClipboard("win32", { PATH });
		await expect(clipboard?.getText() as Promise<unknown>).rejects.toThrow();
		await expect(clipboard?.setText?.("x") as Promise<void>).rejects.toThrow("Could not set clipboard text");
	});
});
