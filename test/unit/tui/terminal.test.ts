import { expect, test } from "bun:test";
import { parseKeyboardNegotiationReply, resolveEscapeTimeoutMs } from "../../../src/tui/terminal.ts";

test("lone ESC timeout: 10 ms, 100 ms over SSH, PI_TUI_ESC_TIMEOUT when it is a positive number", () => {
	expect(resolveEscapeTimeoutMs({})).toBe(10);
	expect(resolveEscapeTimeoutMs({ SSH_CONNECTION: "1 2 3 4" })).toBe(100);
	expect(resolveEscapeTimeoutMs({ SSH_TTY: "/dev/pts/1" })).toBe(100);
	expect(resolveEscapeTimeoutMs({ PI_TUI_ESC_TIMEOUT: "250", SSH_TTY: "/dev/pts/1" })).toBe(250);
	expect(resolveEscapeTimeoutMs({ PI_TUI_ESC_TIMEOUT: "0" })).toBe(10);
	expect(resolveEscapeTimeoutMs({ PI_TUI_ESC_TIMEOUT: "soon" })).toBe(10);
});

test("keyboard negotiation replies: kitty flags and the device-attributes sentinel", () => {
	expect(parseKeyboardNegotiationReply("\x1b[?7u")).toEqual({ type: "kitty-flags", flags: 7 });
	expect(parseKeyboardNegotiationReply("\x1b[?0u")).toEqual({ type: "kitty-flags", flags: 0 });
	expect(parseKeyboardNegotiationReply("\x1b[?62;22c")).toEqual({ type: "device-attributes" });
	expect(parseKeyboardNegotiationReply("\x1b[?c")).toEqual({ type: "device-attributes" });
	expect(parseKeyboardNegotiationReply("\x1b[97u")).toBeUndefined();
	expect(parseKeyboardNegotiationReply("\x1b[?u")).toBeUndefined();
});

test("an unwritable PI_TUI_WRITE_LOG is reported once, in one line naming it, and output still goes out", () => {
	const script = `
const { ProcessTerminal } = await import(${JSON.stringify(`${import.meta.dir}/../../../src/tui/terminal.ts`)});
const terminal = new ProcessTerminal();
terminal.write("one\\n");
terminal.write("two\\n");
`;
	const run = Bun.spawnSync([process.execPath, "-e", script], {
		env: { ...process.env, PI_TUI_WRITE_LOG: "/nonexistent-dir-for-pi-test/log.txt" },
		stdout: "pipe",
		stderr: "pipe",
	});
	expect(run.stdout.toString()).toBe("one\ntwo\n");
	const lines = run.stderr.toString().trim().split("\n");
	expect(lines).toHaveLength(1);
	expect(lines[0]).toStartWith("PI_TUI_WRITE_LOG: cannot write /nonexistent-dir-for-pi-test/log.txt: ");
});
