/**
 * Issue 23 item 2: a settings.json or auth.json that is not valid JSON is reported in one line naming the file, the
 * line and the column, and is never overwritten: its bytes are the same after pi runs and after a change to it is
 * attempted (through the binary, and through the code extensions and SDK scripts use).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthStorage } from "../../src/ai/index.ts";
import { SettingsManager } from "../../src/config/index.ts";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

/** A trailing comma on line 3, column 5. */
const BROKEN_SETTINGS = '{\n  "theme": "dark",\n    ,\n  "quietStartup": true\n}\n';
/** The closing brace of the entry is missing: the file ends on line 3. */
const BROKEN_AUTH = '{\n  "anthropic": { "type": "api_key", "key": "sk-test"\n}\n';

function home(files: Record<string, string>): string {
	const dir = makeTempDir("pi-rel-home-");
	writeMockModels(dir, server.url);
	const agent = join(dir, ".pi", "agent");
	mkdirSync(agent, { recursive: true });
	for (const [name, text] of Object.entries(files)) writeFileSync(join(agent, name), text);
	return dir;
}

function packageDir(): string {
	const dir = makeTempDir("pi-rel-pkg-");
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "rel-pkg", version: "1.0.0" }));
	return dir;
}

describe("invalid settings.json", () => {
	test("a print run warns once with line and column, still answers, and leaves the bytes alone", async () => {
		const h = home({ "settings.json": BROKEN_SETTINGS });
		const file = join(h, ".pi", "agent", "settings.json");
		server.push({ kind: "reply", text: "the answer" });
		const run = await runPiAsync(["-p", "hello"], { home: h });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain("the answer");
		const lines = run.stderr.split("\n").filter((l) => l.includes("settings.json"));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`${file}: invalid JSON at line 3, column 5`);
		expect(readFileSync(file, "utf8")).toBe(BROKEN_SETTINGS);
	}, 60_000);

	test("a command that writes settings (pi install) refuses with line and column; the file is unchanged", async () => {
		const h = home({ "settings.json": BROKEN_SETTINGS });
		const file = join(h, ".pi", "agent", "settings.json");
		const run = await runPiAsync(["install", packageDir()], { home: h });
		expect(run.exitCode).not.toBe(0);
		expect(run.stderr).toContain(`${file}: invalid JSON at line 3, column 5`);
		expect(run.stderr).toContain("not writing");
		expect(readFileSync(file, "utf8")).toBe(BROKEN_SETTINGS);
	}, 60_000);

	test("pi's SettingsManager API (extensions, SDK): the load error names line and column, setters write nothing", async () => {
		const h = home({ "settings.json": BROKEN_SETTINGS });
		const agent = join(h, ".pi", "agent");
		const manager = SettingsManager.create(h, agent);
		manager.setTheme("light");
		await manager.flush();
		const errors = manager.drainErrors();
		expect(errors[0]?.path).toBe(join(agent, "settings.json"));
		expect(errors[0]?.error.message).toContain("invalid JSON at line 3, column 5");
		expect(readFileSync(join(agent, "settings.json"), "utf8")).toBe(BROKEN_SETTINGS);
	});
});

describe("invalid auth.json", () => {
	test("a print run stops before any request with one line naming line and column; the file is unchanged", async () => {
		const h = home({ "auth.json": BROKEN_AUTH });
		const file = join(h, ".pi", "agent", "auth.json");
		const requests = server.requests.length;
		const run = await runPiAsync(["-p", "hello"], { home: h });
		expect(run.exitCode).not.toBe(0);
		const lines = run.stderr.split("\n").filter((l) => l.includes("auth.json"));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`${file}: invalid JSON at line 4, column 1`);
		expect(server.requests.length).toBe(requests);
		expect(readFileSync(file, "utf8")).toBe(BROKEN_AUTH);
	}, 60_000);

	test("storing a credential (login, /login, SDK) is refused with the same position; the file is unchanged", async () => {
		const h = home({ "auth.json": BROKEN_AUTH });
		const file = join(h, ".pi", "agent", "auth.json");
		const auth = new AuthStorage(file);
		expect(auth.getErrors()[0]).toContain("invalid JSON at line 4, column 1");
		await expect(auth.set("openai", { type: "api_key", key: "sk-new" })).rejects.toThrow(
			/invalid JSON at line 4, column 1.*left unchanged/,
		);
		expect(readFileSync(file, "utf8")).toBe(BROKEN_AUTH);
	});
});
