/**
 * The pieces behind the context commands: the ZIP writer of `/bug` (read back by our reader and by `unzip -t`
 * where installed), the bug report's redaction, the branch JSONL of `/export x.jsonl`, `/export`'s path argument,
 * the last-reply text `/copy` takes, the `/hotkeys` table and the changelog parser.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { APP_KEYBINDINGS } from "../../src/modes/interactive/app/keybindings.ts";
import { changelogEntries } from "../../src/modes/interactive/commands/changelog-text.ts";
import { lastAssistantText } from "../../src/modes/interactive/commands/context.ts";
import { hotkeysMarkdown } from "../../src/modes/interactive/commands/hotkeys-text.ts";
import { pathArgument } from "../../src/modes/interactive/commands/path-argument.ts";
import {
	isSecretKey,
	REDACTED,
	redactJson,
	redactSettings,
	redactUrl,
} from "../../src/modes/interactive/commands/redact.ts";
import { zipArchive } from "../../src/modes/interactive/commands/zip.ts";
import { KeybindingsManager } from "../../src/tui/index.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { readZip } from "../helpers/unzip.ts";

describe("zip writer", () => {
	const entries = [
		{ name: "report.json", data: `${JSON.stringify({ a: 1, text: "x".repeat(2000) }, null, 2)}\n` },
		{ name: "tiny.txt", data: "hi" },
		{ name: "dir/ünïcode.bin", data: new Uint8Array([0, 255, 1, 254, 2, 253]) },
		{ name: "empty.txt", data: "" },
	];

	test("entries read back with their names, bytes and CRCs; compressible text is deflated", () => {
		const zip = zipArchive(entries);
		const files = readZip(zip);
		expect([...files.keys()]).toEqual(["report.json", "tiny.txt", "dir/ünïcode.bin", "empty.txt"]);
		expect(files.get("report.json")).toBe(entries[0]?.data as string);
		expect(files.get("tiny.txt")).toBe("hi");
		expect(files.get("empty.txt")).toBe("");
		// Deflated: the archive is much smaller than the 2,000 repeated characters.
		expect(zip.length).toBeLessThan(1000);
	});

	test("unzip -t accepts the archive", () => {
		const check = spawnSync("unzip", ["-v"], { encoding: "utf8" });
		if (check.error || check.status !== 0) {
			console.log("skipped: no unzip on this machine");
			return;
		}
		const file = join(makeTempDir(), "a.zip");
		writeFileSync(file, zipArchive(entries));
		const result = spawnSync("unzip", ["-t", file], { encoding: "utf8" });
		expect(result.stdout).toContain("No errors detected");
		expect(result.status).toBe(0);
	});
});

describe("bug report redaction", () => {
	test("secret-named keys in any case style", () => {
		for (const key of ["apiKey", "api_key", "API-KEY", "token", "AUTH_TOKEN", "password", "clientSecret", "cookie"]) {
			expect(isSecretKey(key)).toBe(true);
		}
		for (const key of ["totalTokens", "model", "keybindings", "tokenizer", "id"]) expect(isSecretKey(key)).toBe(false);
	});

	test("URLs lose credentials and secret query values; other strings stay", () => {
		expect(redactUrl("https://user:pw@example.com/v1?api_key=abc&x=1")).toBe(
			`https://example.com/v1?api_key=${encodeURIComponent(REDACTED)}&x=1`,
		);
		expect(redactUrl("git+https://me:tok@github.com/a/b")).toBe("git+https://github.com/a/b");
		expect(redactUrl("not a url")).toBe("not a url");
	});

	test("settings: nested secrets redacted, trackingId dropped, the rest kept", () => {
		const settings = {
			trackingId: "t-1",
			defaultModel: "m",
			providers: { openai: { apiKey: "sk-secret", baseUrl: "https://u:p@proxy.local/" } },
			headers: { Authorization: "Bearer x" },
			retry: { enabled: true, maxRetries: 3 },
		};
		const out = redactSettings(settings) as Record<string, unknown>;
		expect(out).toEqual({
			defaultModel: "m",
			providers: { openai: { apiKey: REDACTED, baseUrl: "https://proxy.local/" } },
			headers: { Authorization: REDACTED },
			retry: { enabled: true, maxRetries: 3 },
		});
		expect(JSON.stringify(out)).not.toContain("sk-secret");
		// The input is untouched.
		expect(settings.providers.openai.apiKey).toBe("sk-secret");
	});

	test("URLs inside text are redacted too", () => {
		expect(redactJson({ text: "see https://me:pw@host.dev/a?token=t1 now" })).toEqual({
			text: `see https://host.dev/a?token=${encodeURIComponent(REDACTED)} now`,
		});
	});

	test("redactJson keeps null values and non-secret numbers", () => {
		expect(redactJson({ token: null, usage: { totalTokens: 5 } })).toEqual({ token: null, usage: { totalTokens: 5 } });
	});
});

describe("command helpers", () => {
	test("path argument: first word, or a quoted path", () => {
		expect(pathArgument("")).toBeUndefined();
		expect(pathArgument("out.html extra")).toBe("out.html");
		expect(pathArgument('"my file.jsonl" rest')).toBe("my file.jsonl");
		expect(pathArgument("'unclosed")).toBeUndefined();
	});

	test("the last assistant text skips empty aborted replies and joins text blocks", () => {
		const messages = [
			{ role: "assistant", content: [{ type: "text", text: "first" }], stopReason: "stop" },
			{ role: "user", content: "q" },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hmm" },
					{ type: "text", text: "a" },
					{ type: "text", text: "b " },
				],
				stopReason: "stop",
			},
			{ role: "assistant", content: [], stopReason: "aborted" },
		];
		expect(lastAssistantText(messages as never)).toBe("ab");
		expect(lastAssistantText([])).toBeUndefined();
	});

	test("hotkeys: remapped keys as the manager has them, capitalised; extension shortcuts last", () => {
		const keys = new KeybindingsManager(APP_KEYBINDINGS, { "app.message.copy": "ctrl+y" });
		const text = hotkeysMarkdown(keys, [{ key: "ctrl+shift+k", description: "Do a thing", extensionPath: "/x.ts" }]);
		expect(text).toContain("| `Ctrl+Y` | Copy selection or last assistant message |");
		expect(text).toContain("**Navigation**");
		expect(text).toContain("| `Enter` | Send message |");
		expect(text.trimEnd().endsWith("| `Ctrl+Shift+K` | Do a thing |")).toBe(true);
		expect(text).not.toContain("Ctrl+X");
	});

	test("changelog: version sections in file order; the embedded file has one", () => {
		const entries = changelogEntries("# T\n\n## [0.2.0] - x\n- two\n\n## Notes\nskip\n## [0.1.0]\n- one\n");
		expect(entries).toEqual([
			{ version: "0.2.0", content: "## [0.2.0] - x\n- two" },
			{ version: "0.1.0", content: "## [0.1.0]\n- one" },
		]);
		expect(changelogEntries().length).toBeGreaterThan(0);
	});
});
