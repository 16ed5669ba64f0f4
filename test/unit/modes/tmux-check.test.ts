/** The tmux keyboard check, against a stand-in `tmux` on PATH (no real tmux needed). */
import { afterEach, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmuxKeyboardWarning } from "../../../src/modes/interactive/app/tmux-check.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const savedPath = process.env.PATH;
afterEach(() => {
	process.env.PATH = savedPath;
});

function fakeTmux(keys: string, format: string, code = 0): void {
	const dir = makeTempDir("pi-fake-tmux-");
	const script = join(dir, "tmux");
	writeFileSync(
		script,
		`#!/bin/sh\ncase "$3" in\n  extended-keys) echo "${keys}" ;;\n  extended-keys-format) echo "${format}" ;;\nesac\nexit ${code}\n`,
	);
	chmodSync(script, 0o755);
	process.env.PATH = `${dir}:${savedPath}`;
}

test("outside tmux there is nothing to check", async () => {
	expect(await tmuxKeyboardWarning({})).toBeUndefined();
});

test("extended-keys off warns; on with csi-u is fine; the xterm format gets advice", async () => {
	const env = { TMUX: "/tmp/tmux-1000/default,1,0" };
	fakeTmux("off", "csi-u");
	expect(await tmuxKeyboardWarning(env)).toContain("set -g extended-keys on");
	fakeTmux("on", "csi-u");
	expect(await tmuxKeyboardWarning(env)).toBeUndefined();
	fakeTmux("always", "xterm");
	expect(await tmuxKeyboardWarning(env)).toContain("extended-keys-format csi-u");
});

test("a tmux that fails to answer gives no warning", async () => {
	fakeTmux("off", "csi-u", 1);
	expect(await tmuxKeyboardWarning({ TMUX: "x" })).toBeUndefined();
});
