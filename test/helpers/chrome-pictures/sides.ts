/**
 * The two sides of the chrome picture test: `piChrome` runs node-main.ts under Node 22 against pi 0.87.1's install
 * (one process for every case × width); `ourChrome` draws the same cases in this Bun process with our chrome
 * components and our dark theme. Both draw with HOME = cases.HOME and no experimental flag.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunnablePi } from "../../../scripts/conformance-cache.ts";
import { type ChromeLib, type ChromePictures, drawChrome, FAKE_TUI, HOME } from "./cases.ts";

const ENV = { HOME, COLORTERM: "truecolor", TZ: "UTC" };

export function piChrome(pi: RunnablePi): ChromePictures {
	const root = mkdtempSync(join(tmpdir(), "pi-chrome-"));
	try {
		const out = join(root, "pi-chrome.json");
		const env: Record<string, string | undefined> = {
			...process.env,
			...ENV,
			PI_CODING_AGENT_DIR: join(root, "agent"),
		};
		delete env.PI_EXPERIMENTAL;
		const child = Bun.spawnSync([pi.node, join(import.meta.dir, "node-main.ts")], {
			cwd: dirname(pi.modules),
			env: {
				...env,
				PI_CHROME: JSON.stringify({ modules: pi.modules, out }),
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			},
			stdout: "pipe",
			stderr: "pipe",
			timeout: 120_000,
		});
		if (child.exitCode !== 0) throw new Error(`pi chrome failed (exit ${child.exitCode}): ${child.stderr.toString()}`);
		return JSON.parse(readFileSync(out, "utf8")) as ChromePictures;
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

export async function ourChrome(): Promise<ChromePictures> {
	const saved = Object.fromEntries(Object.keys(ENV).map((key) => [key, process.env[key]]));
	Object.assign(process.env, ENV);
	try {
		const [chrome, resources, sdk, tui] = await Promise.all([
			import("../../../src/modes/interactive/chrome/index.ts"),
			import("../../../src/resources/index.ts"),
			import("../../../src/sdk/pi-coding-agent.ts"),
			import("../../../src/tui/index.ts"),
		]);
		resources.initTheme("dark");
		const lib: ChromeLib = {
			Footer: chrome.FooterComponent as unknown as ChromeLib["Footer"],
			DynamicBorder: sdk.DynamicBorder,
			keyHint: chrome.keyHint,
			rawKeyHint: chrome.rawKeyHint,
			working: (message) => new chrome.WorkingStatusIndicator(undefined, message),
			compaction: (reason) => new chrome.CompactionStatusIndicator(undefined, reason),
			branchSummary: () => new chrome.BranchSummaryStatusIndicator(undefined),
			retry: (attempt, max, delayMs) => new chrome.RetryStatusIndicator(undefined, attempt, max, delayMs),
			editor: () =>
				new tui.CustomEditor(FAKE_TUI as never, sdk.getEditorTheme(), tui.getKeybindings(), {
					embedWorkingStatus: true,
				}) as unknown as ReturnType<ChromeLib["editor"]>,
		};
		return drawChrome(lib);
	} finally {
		for (const [key, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	}
}
