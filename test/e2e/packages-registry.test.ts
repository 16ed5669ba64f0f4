/**
 * The package manager end to end in the compiled binary against the loopback registry (no npm, no network): a user
 * installs an npm package, sees it in `pi list`, its extension command and prompt template load, a dependency's
 * install script stays blocked until trusted, `pi update --extensions` shows old → new and applies it, a tampered
 * tarball is refused with everything left as it was, `pi -e npm:…` loads for one run without touching settings,
 * `-l` installs into the project's own tree, and `pi remove` takes it all away.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "../../src/modes/rpc/index.ts";
import { ensureBinary, runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { createBareRepo, gitMissingReason } from "../support/git-repos.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { type FakeRegistry, registryEnv, startRegistry } from "../support/npm-registry.ts";

const server = startMockLlm();
let registry: FakeRegistry | undefined;
afterAll(() => {
	server.stop();
	registry?.stop();
});
const clients: RpcClient[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

const command = (name: string) =>
	`export default function (pi) { pi.registerCommand(${JSON.stringify(name)}, { description: "${name}", handler: async () => {} }); }\n`;

function demo(version: string) {
	return {
		name: "pi-demo",
		version,
		dependencies: { "dep-a": "^1.0.0" },
		peerDependencies: { "@earendil-works/pi-coding-agent": "*" },
		files: {
			"extensions/demo.ts": command("demo-cmd"),
			"prompts/hello.md": `---\ndescription: hello ${version}\n---\nSay hello\n`,
		},
	};
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("pi install from a registry (binary)", () => {
	test("install, list, load, scripts, update, integrity refusal, -e, -l and remove", async () => {
		registry = await startRegistry([
			demo("1.0.0"),
			{
				name: "dep-a",
				version: "1.0.0",
				scripts: { postinstall: "node -e \"require('fs').writeFileSync('ran.txt','x')\"" },
				files: { "index.js": "module.exports = 1;\n" },
			},
			// Bun reads a peer's metadata to resolve it, but never downloads it (the binary provides it).
			{ name: "@earendil-works/pi-coding-agent", version: "0.87.1", files: { "index.js": "" } },
			{ name: "pi-once", version: "2.0.0", files: { "extensions/once.ts": command("once-cmd") } },
			{ name: "pi-bad", version: "1.0.0", files: { "extensions/bad.ts": command("bad-cmd") } },
		]);
		const home = makeTempDir("pi-pkg-reg-");
		const cwd = makeTempDir("pi-pkg-reg-cwd-");
		writeMockModels(home, server.url);
		const agentDir = join(home, ".pi", "agent");
		const env = { ...registryEnv(registry, home), PI_CODING_AGENT_DIR: agentDir };
		const pi = (args: string[]) => runPiAsync(args, { home, cwd, env });
		const settings = () => readJson(join(agentDir, "settings.json")).packages;
		const tree = join(agentDir, "npm", "node_modules");

		// Install: the package and its dependency, not the host-provided peer; the dependency's script is blocked.
		const installed = await pi(["install", "npm:pi-demo"]);
		expect(installed.exitCode).toBe(0);
		expect(installed.stdout.trim().split("\n").at(-1)).toBe("Installed npm:pi-demo");
		expect(installed.stderr).toContain("dep-a");
		expect(installed.stderr).toContain("pi install --trust");
		expect(settings()).toEqual(["npm:pi-demo"]);
		expect(existsSync(join(tree, "pi-demo", "extensions", "demo.ts"))).toBe(true);
		expect(existsSync(join(tree, "dep-a", "index.js"))).toBe(true);
		expect(existsSync(join(tree, "dep-a", "ran.txt"))).toBe(false);
		expect(existsSync(join(tree, "@earendil-works"))).toBe(false);
		expect(registry.requests.filter((r) => r.includes("pi-coding-agent-0.87.1.tgz"))).toEqual([]);
		const record = readJson(join(agentDir, "packages.lock.json"));
		expect(JSON.stringify(record)).toContain("sha512-");
		expect(JSON.stringify(record)).toContain('"1.0.0"');

		const listed = await pi(["list"]);
		expect(listed.exitCode).toBe(0);
		expect(listed.stdout).toContain("User packages:");
		expect(listed.stdout).toContain("npm:pi-demo");
		expect(listed.stdout).toContain("1.0.0");
		expect(listed.stdout).toMatch(/1 extension.*1 prompt template/);

		// It loads: its command and prompt template are there at start-up.
		const rpc = new RpcClient({ cliPath: ensureBinary(), cwd, env: { ...env, HOME: home }, forwardStderr: false });
		clients.push(rpc);
		await rpc.start();
		const names = (await rpc.getCommands()).map((c) => c.name);
		expect(names).toContain("demo-cmd");
		expect(names).toContain("hello");
		await rpc.stop();

		// Trusting the package lets the scripts of its dependencies run.
		const trusted = await pi(["install", "npm:pi-demo", "--trust"]);
		expect(trusted.exitCode).toBe(0);
		expect(existsSync(join(tree, "dep-a", "ran.txt"))).toBe(true);
		expect(settings()).toEqual(["npm:pi-demo"]);

		// Update: the plan shows old → new before it applies.
		registry.add(demo("1.1.0"));
		const updated = await pi(["update", "--extensions"]);
		expect(updated.exitCode).toBe(0);
		expect(updated.stdout).toMatch(/npm:pi-demo.*1\.0\.0 → 1\.1\.0/);
		expect(readJson(join(tree, "pi-demo", "package.json")).version).toBe("1.1.0");

		// A tarball that does not match its integrity: refused in one line, nothing changed.
		registry.corruptIntegrity("pi-bad", "1.0.0");
		const before = readFileSync(join(agentDir, "settings.json"), "utf8");
		const bad = await pi(["install", "npm:pi-bad"]);
		expect(bad.exitCode).toBe(1);
		expect(bad.stderr.trim().split("\n")).toHaveLength(1);
		expect(bad.stderr.toLowerCase()).toContain("integrity");
		expect(readFileSync(join(agentDir, "settings.json"), "utf8")).toBe(before);
		expect(existsSync(join(tree, "pi-bad"))).toBe(false);
		expect(existsSync(join(tree, "pi-demo", "extensions", "demo.ts"))).toBe(true);

		// -e npm:…: one run, no settings change.
		const once = new RpcClient({
			cliPath: ensureBinary(),
			cwd,
			env: { ...env, HOME: home },
			args: ["-e", "npm:pi-once"],
			forwardStderr: false,
		});
		clients.push(once);
		await once.start();
		expect((await once.getCommands()).map((c) => c.name)).toContain("once-cmd");
		await once.stop();
		expect(settings()).toEqual(["npm:pi-demo"]);

		// Project scope: its own tree under .pi/npm, written to .pi/settings.json.
		const local = await pi(["install", "-l", "--approve", "npm:pi-once@2.0.0"]);
		expect(local.exitCode).toBe(0);
		expect(existsSync(join(cwd, ".pi", "npm", "node_modules", "pi-once", "extensions", "once.ts"))).toBe(true);
		expect(readJson(join(cwd, ".pi", "settings.json")).packages).toEqual(["npm:pi-once@2.0.0"]);

		const removed = await pi(["remove", "npm:pi-demo"]);
		expect(removed.exitCode).toBe(0);
		expect(removed.stdout.trim().split("\n").at(-1)).toBe("Removed npm:pi-demo");
		expect(settings()).toEqual([]);
		expect(existsSync(join(tree, "pi-demo"))).toBe(false);
		const again = await pi(["remove", "npm:pi-demo"]);
		expect(again.exitCode).toBe(1);
		expect(again.stderr).toContain("No matching package found for npm:pi-demo");
	}, 240_000);

	test("a git package at a tag: cloned, pinned, listed with its commit; a missing ref is one line", async () => {
		const missing = gitMissingReason();
		if (missing) {
			console.log(`skipped: ${missing}`);
			return;
		}
		const home = makeTempDir("pi-pkg-git-");
		const cwd = makeTempDir("pi-pkg-git-cwd-");
		const agentDir = join(home, ".pi", "agent");
		const repo = createBareRepo(makeTempDir("pi-pkg-git-repos-"), "tools", {
			"package.json": JSON.stringify({ name: "tools", version: "1.0.0", scripts: { prepare: "touch prepared" } }),
			"extensions/tools.ts": command("tools-cmd"),
		});
		const v1 = repo.tag("v1");
		repo.commit({ "extensions/later.ts": command("later-cmd") });
		const env = { PI_CODING_AGENT_DIR: agentDir, HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9" };
		const pi = (args: string[]) => runPiAsync(args, { home, cwd, env });
		const source = `git:${repo.url}@v1`;
		const installed = await pi(["install", source]);
		expect(installed.exitCode).toBe(0);
		expect(installed.stdout.trim().split("\n").at(-1)).toBe(`Installed ${source}`);
		const clone = join(
			agentDir,
			"git",
			"local",
			...repo.url
				.slice("file:///".length)
				.replace(/\.git$/, "")
				.split("/"),
		);
		expect(existsSync(join(clone, "extensions", "tools.ts"))).toBe(true);
		expect(existsSync(join(clone, "extensions", "later.ts"))).toBe(false);
		expect(existsSync(join(clone, "prepared"))).toBe(false);
		const listed = await pi(["list"]);
		expect(listed.stdout).toContain(v1.slice(0, 7));
		expect(listed.stdout).toContain("pinned");
		const bad = await pi(["install", `git:${repo.url}@v9`]);
		expect(bad.exitCode).toBe(1);
		expect(bad.stderr).toContain("v9");
		expect(readJson(join(agentDir, "settings.json")).packages).toEqual([source]);
	}, 120_000);
});
