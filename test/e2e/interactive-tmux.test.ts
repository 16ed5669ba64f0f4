/**
 * Our app inside a real tmux (its own server and socket under the test's temp folder): with `extended-keys on`
 * a modified key such as Shift+Enter reaches the editor (a new line, not a send) and no keyboard warning shows;
 * with it off, the chat says how to turn it on. Needs tmux; without it the file says so and skips.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureBinary } from "../helpers/binary.ts";
import { reply } from "../helpers/interactive-scenarios.ts";
import { type PtyApp, startApp } from "../helpers/pty-app.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const tmux = Bun.which("tmux");
if (!tmux) console.log("skip: tmux is not installed, so the tests of pi inside tmux do not run");

/** Our app as the only window of a new tmux server whose socket lives in a temp folder of its own. */
async function inTmux(config: string, mockReply: string): Promise<{ app: PtyApp; stop(): Promise<void> }> {
	const dir = makeTempDir("pi-tmux-");
	const conf = join(dir, "tmux.conf");
	await Bun.write(conf, config);
	const env = { TMUX_TMPDIR: dir };
	const app = await startApp("ours", [tmux as string, "-L", "pi-e2e", "-f", conf, "new-session", ensureBinary()], {
		mock: [reply(mockReply)],
		env,
	});
	return {
		app,
		async stop() {
			// The tmux server outlives its client; end it, then the client.
			Bun.spawnSync([tmux as string, "-L", "pi-e2e", "kill-server"], { env: { ...process.env, ...env } });
			await app.close();
		},
	};
}

describe.skipIf(!tmux)("pi inside tmux", () => {
	test("extended-keys on: Shift+Enter adds a line in the editor, Enter sends both lines", async () => {
		const { app, stop } = await inTmux(
			"set -g status off\nset -s extended-keys on\nset -as terminal-features xterm*:extkeys\n",
			"two lines received",
		);
		try {
			await app.waitFor("mock-1", 20_000);
			app.type("first line");
			await app.waitFor("first line");
			await app.press("shift+enter");
			app.type("second line");
			await app.waitFor((lines) => lines.some((l) => l.includes("second line")));
			await app.press("enter");
			await app.waitFor("two lines received", 20_000);
			const sent = JSON.stringify(app.mock.requests[0]?.body ?? "");
			expect(sent).toContain("first line\\nsecond line");
			expect((await app.screen()).join("\n")).not.toContain("extended-keys");
		} finally {
			await stop();
		}
	}, 60_000);

	test("extended-keys off: the chat says how to turn it on", async () => {
		const { app, stop } = await inTmux("set -g status off\nset -s extended-keys off\n", "unused");
		try {
			await app.waitFor("extended-keys", 20_000);
		} finally {
			await stop();
		}
	}, 60_000);
});
