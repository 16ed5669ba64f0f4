/**
 * pi's `DefaultPackageManager` (SDK) with npm packages from the loopback registry: `install` touches files only,
 * `installAndPersist`/`removeAndPersist` also the settings (through the SettingsManager), `resolve()` installs a
 * missing package when `onMissing` says so, `checkForAvailableUpdates`/`update` move an unpinned package, and the
 * progress callback gets pi's start/complete/error events.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DefaultPackageManager, type ProgressEvent, SettingsManager } from "../../../src/sdk/pi-coding-agent.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import { type FakeRegistry, registryEnv, startRegistry } from "../../support/npm-registry.ts";

let reg: FakeRegistry;
const saved: Record<string, string | undefined> = {};

const extension = "export default function (pi) {}\n";

beforeAll(async () => {
	reg = await startRegistry([
		{
			name: "tool",
			version: "1.0.0",
			files: { "extensions/tool.ts": extension },
			pi: { extensions: ["./extensions"] },
		},
		{ name: "other", version: "2.0.0", files: { "prompts/o.md": "---\ndescription: o\n---\nO\n" } },
	]);
	const home = makeTempDir("pi-dpm-home-");
	for (const [key, value] of Object.entries(registryEnv(reg, home))) {
		saved[key] = process.env[key];
		process.env[key] = value;
	}
});
afterAll(() => {
	reg.stop();
	for (const [key, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[key];
		else process.env[key] = value;
	}
});

function setup() {
	const root = makeTempDir("pi-dpm-");
	const agentDir = join(root, "agent");
	const cwd = join(root, "proj");
	const settingsManager = SettingsManager.create(cwd, agentDir, { projectTrusted: true });
	const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager });
	const events: ProgressEvent[] = [];
	manager.setProgressCallback((event) => events.push(event));
	const userPackages = async () => {
		await settingsManager.flush();
		const path = join(agentDir, "settings.json");
		return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).packages : undefined;
	};
	return { agentDir, cwd, manager, events, userPackages, settingsManager };
}

const starts = (events: ProgressEvent[]) =>
	events.filter((e) => e.type !== "progress").map((e) => `${e.type} ${e.action} ${e.source}`);

describe("DefaultPackageManager with npm packages", () => {
	test("install, installAndPersist, resolve, removeAndPersist", async () => {
		const f = setup();
		await f.manager.install("npm:other");
		expect(f.manager.getInstalledPath("npm:other", "user")).toBe(join(f.agentDir, "npm", "node_modules", "other"));
		expect(await f.userPackages()).toBeUndefined();

		await f.manager.installAndPersist("npm:tool");
		const toolPath = join(f.agentDir, "npm", "node_modules", "tool");
		expect(f.manager.getInstalledPath("npm:tool", "user")).toBe(toolPath);
		expect(await f.userPackages()).toEqual(["npm:tool"]);
		expect(f.manager.listConfiguredPackages()).toEqual([
			{ source: "npm:tool", scope: "user", filtered: false, installedPath: toolPath },
		]);
		const resolved = await f.manager.resolve();
		expect(resolved.extensions).toEqual([
			{
				path: join(toolPath, "extensions", "tool.ts"),
				enabled: true,
				metadata: { source: "npm:tool", scope: "user", origin: "package", baseDir: toolPath },
			},
		]);

		expect(await f.manager.removeAndPersist("npm:tool")).toBe(true);
		expect(existsSync(toolPath)).toBe(false);
		expect(await f.userPackages()).toEqual([]);
		expect(starts(f.events)).toEqual([
			"start install npm:other",
			"complete install npm:other",
			"start install npm:tool",
			"complete install npm:tool",
			"start remove npm:tool",
			"complete remove npm:tool",
		]);
		expect(f.events.some((e) => e.type === "progress")).toBe(true);

		await expect(f.manager.install("npm:no-such-package")).rejects.toThrow("no-such-package");
		expect(f.events.at(-1)).toMatchObject({ type: "error", action: "install", source: "npm:no-such-package" });
	}, 60_000);

	test("resolve() asks onMissing and installs; updates are found and applied", async () => {
		const f = setup();
		f.settingsManager.setPackages(["npm:tool"]);
		await f.settingsManager.flush();
		const asked: string[] = [];
		const skipped = await f.manager.resolve(async (source) => {
			asked.push(source);
			return "skip";
		});
		expect(skipped.extensions).toEqual([]);
		await expect(f.manager.resolve(async () => "error")).rejects.toThrow("Missing source: npm:tool");
		const installed = await f.manager.resolve(async () => "install");
		expect(asked).toEqual(["npm:tool"]);
		expect(installed.extensions.map((e) => e.metadata.source)).toEqual(["npm:tool"]);

		expect(await f.manager.checkForAvailableUpdates()).toEqual([]);
		reg.add({
			name: "tool",
			version: "1.1.0",
			files: { "extensions/tool.ts": extension },
			pi: { extensions: ["./extensions"] },
		});
		expect(await f.manager.checkForAvailableUpdates()).toEqual([
			{ source: "npm:tool", displayName: "tool", type: "npm", scope: "user" },
		]);
		await expect(f.manager.update("npm:nothing")).rejects.toThrow("No matching package found for npm:nothing");
		await f.manager.update();
		const manifest = JSON.parse(readFileSync(join(f.agentDir, "npm", "node_modules", "tool", "package.json"), "utf8"));
		expect(manifest.version).toBe("1.1.0");
		expect(starts(f.events).filter((e) => e.includes("update"))).toEqual([
			"start update npm:tool",
			"complete update npm:tool",
		]);
	}, 60_000);
});
