/**
 * Packages at start-up through the compiled binary (RPC `get_commands`): settings `packages` of the user load
 * before trust, the project's only after it; package extensions, prompt templates and skills carry pi's source
 * info (source as written, scope, origin "package", the package root); filters apply; `-e npm:…` loads a package
 * already in the cache scope without installing; PI_OFFLINE skips a missing package with one line. pi's
 * `subagent` example loaded with `-e <folder>` registers the same commands as in pi 0.87.1 itself.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensurePackage, ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import { RpcClient } from "../../src/modes/rpc/index.ts";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { runRpcSession } from "../helpers/conformance-rpc.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const clients: RpcClient[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

const command = (name: string) =>
	`export default function (pi) { pi.registerCommand(${JSON.stringify(name)}, { description: "${name} d", handler: async () => {} }); }\n`;
const SKILL = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nUse it.\n`;
const PROMPT = (text: string) => `---\ndescription: ${text}\n---\n${text}\n`;

/** A package with conventional folders: one extension command, one prompt template, one skill. */
function pkg(root: string, name: string): void {
	writeTree(root, {
		[`extensions/${name}.ts`]: command(`${name}-cmd`),
		[`prompts/${name}-prompt.md`]: PROMPT(`${name} prompt`),
		[`skills/${name}-skill/SKILL.md`]: SKILL(`${name}-skill`),
	});
}

interface Setup {
	home: string;
	agentDir: string;
	cwd: string;
	env: Record<string, string>;
}

function setup(): Setup {
	const home = makeTempDir("pi-pkg-home-");
	writeMockModels(home, server.url);
	const agentDir = join(home, ".pi/agent");
	const cwd = makeTempDir("pi-pkg-cwd-");
	return { home, agentDir, cwd, env: { HOME: home, PI_CODING_AGENT_DIR: agentDir } };
}

async function commands(s: Setup, args: string[] = [], env: Record<string, string> = {}) {
	const client = new RpcClient({
		cliPath: ensureBinary(),
		cwd: s.cwd,
		env: { ...s.env, ...env },
		args,
		forwardStderr: false,
	});
	clients.push(client);
	await client.start();
	const list = await client.getCommands();
	const byName = new Map(list.map((c) => [c.name, c]));
	return { byName, stderr: () => client.getStderr() };
}

describe("packages at start-up (binary)", () => {
	test("user packages before trust, project packages after; source info and filters as pi's", async () => {
		const s = setup();
		pkg(join(s.agentDir, "pkgs/tools"), "tools");
		const cached = join(s.agentDir, "npm/node_modules/cached");
		pkg(cached, "cached");
		writeTree(cached, { "package.json": JSON.stringify({ name: "cached", version: "1.0.0" }) });
		pkg(join(s.cwd, "proj-pkg"), "proj");
		writeTree(s.agentDir, {
			"settings.json": JSON.stringify({ packages: ["./pkgs/tools", { source: "npm:cached", prompts: [] }] }),
		});
		writeTree(s.cwd, { ".pi/settings.json": JSON.stringify({ packages: ["../proj-pkg"] }) });

		const untrusted = await commands(s, ["--no-approve"]);
		const tools = join(s.agentDir, "pkgs/tools");
		expect(untrusted.byName.get("tools-cmd")?.sourceInfo).toEqual({
			path: join(tools, "extensions/tools.ts"),
			source: "./pkgs/tools",
			scope: "user",
			origin: "package",
			baseDir: tools,
		});
		expect(untrusted.byName.get("tools-prompt")?.sourceInfo).toEqual({
			path: join(tools, "prompts/tools-prompt.md"),
			source: "./pkgs/tools",
			scope: "user",
			origin: "package",
			baseDir: tools,
		});
		expect(untrusted.byName.get("skill:tools-skill")?.sourceInfo).toMatchObject({ origin: "package", scope: "user" });
		expect(untrusted.byName.get("cached-cmd")?.sourceInfo).toMatchObject({ source: "npm:cached", baseDir: cached });
		// `prompts: []` filters the package's prompt templates out.
		expect(untrusted.byName.has("cached-prompt")).toBe(false);
		expect(untrusted.byName.has("proj-cmd")).toBe(false);
		expect(untrusted.byName.has("proj-prompt")).toBe(false);

		const trusted = await commands(s, ["--approve"]);
		expect(trusted.byName.get("proj-cmd")?.sourceInfo).toMatchObject({
			source: "../proj-pkg",
			scope: "project",
			origin: "package",
			baseDir: join(s.cwd, "proj-pkg"),
		});
		expect(trusted.byName.get("proj-prompt")?.sourceInfo).toMatchObject({ scope: "project", origin: "package" });
		expect(trusted.byName.has("tools-cmd")).toBe(true);
		expect(trusted.stderr()).not.toContain("package");
	});

	test("after trust, a project autoload:false delta drops a user package's extension that loaded before trust", async () => {
		const s = setup();
		const tools = join(s.agentDir, "pkgs/tools");
		pkg(tools, "tools");
		writeTree(s.agentDir, { "settings.json": JSON.stringify({ packages: ["./pkgs/tools"] }) });
		writeTree(s.cwd, {
			".pi/settings.json": JSON.stringify({
				packages: [{ source: tools, autoload: false, extensions: ["-extensions/tools.ts"] }],
			}),
		});
		const before = await commands(s, ["--no-approve"]);
		expect(before.byName.has("tools-cmd")).toBe(true);
		const after = await commands(s, ["--approve"]);
		expect(after.byName.has("tools-cmd")).toBe(false);
		expect(after.byName.get("tools-prompt")?.sourceInfo).toMatchObject({ scope: "user", source: "./pkgs/tools" });
	});

	test("-e npm:… loads a package cached in the temporary scope, without touching settings", async () => {
		const s = setup();
		const folder = join(s.agentDir, "cache/packages/npm/node_modules/tmp-pkg");
		pkg(folder, "tmp");
		writeTree(folder, { "package.json": JSON.stringify({ name: "tmp-pkg", version: "1.0.0" }) });
		const { byName, stderr } = await commands(s, ["-e", "npm:tmp-pkg"], { PI_OFFLINE: "1" });
		expect(byName.get("tmp-cmd")?.sourceInfo).toMatchObject({ source: "cli", scope: "temporary" });
		expect(byName.get("tmp-prompt")?.sourceInfo).toEqual({
			path: join(folder, "prompts/tmp-prompt.md"),
			source: "npm:tmp-pkg",
			scope: "temporary",
			origin: "package",
			baseDir: folder,
		});
		expect(stderr()).toBe("");
		expect(await Bun.file(join(s.agentDir, "settings.json")).exists()).toBe(false);
	});

	test("PI_OFFLINE: a missing package is one warning line and the rest loads; bad sources are one line", async () => {
		const s = setup();
		pkg(join(s.agentDir, "pkgs/tools"), "tools");
		writeTree(s.agentDir, {
			"settings.json": JSON.stringify({ packages: ["npm:missing", "npm:bad;rm", "./pkgs/tools"] }),
		});
		const { byName, stderr } = await commands(s, ["-e", "git:github.com/o/absent"], { PI_OFFLINE: "1" });
		expect(byName.has("tools-cmd")).toBe(true);
		const lines = stderr().trim().split("\n");
		expect(lines).toContain("package npm:missing: not installed and PI_OFFLINE is set; skipped");
		expect(lines).toContain("package git:github.com/o/absent: not installed and PI_OFFLINE is set; skipped");
		expect(lines.filter((l) => l.includes("npm:bad;rm"))).toEqual([
			'user settings "packages": Invalid package source "npm:bad;rm": "bad;rm" is not a valid npm package name',
		]);
	});

	test("a package listing a pi package as a dependency warns; a corrupt package.json is one line", async () => {
		const s = setup();
		const host = join(s.agentDir, "npm/node_modules/host-dep");
		pkg(host, "hostdep");
		writeTree(host, {
			"package.json": JSON.stringify({ name: "host-dep", version: "1.0.0", dependencies: { typebox: "^1" } }),
		});
		const broken = join(s.agentDir, "pkgs/broken");
		pkg(broken, "broken");
		writeTree(broken, { "package.json": "{ nope" });
		writeTree(s.agentDir, { "settings.json": JSON.stringify({ packages: ["npm:host-dep", "./pkgs/broken"] }) });
		const { byName, stderr } = await commands(s);
		expect(byName.has("hostdep-cmd")).toBe(true);
		expect(byName.has("broken-cmd")).toBe(true);
		const lines = stderr().trim().split("\n");
		expect(lines.filter((l) => l.includes('"typebox" is provided by pi'))).toHaveLength(1);
		expect(lines.filter((l) => l.includes(join(broken, "package.json")))).toHaveLength(1);
	});
});

describe("pi's subagent example with -e <folder>", () => {
	test("registers the same commands (its three prompt templates) as pi 0.87.1", async () => {
		const release = ensurePackage("@earendil-works/pi-coding-agent@0.87.1");
		const pi = ensureRunnablePi();
		if ("error" in release || "error" in pi) {
			console.log(`skipped: ${"error" in release ? release.error : "error" in pi ? pi.error : ""}`);
			return;
		}
		const unit = join(release.dir, "examples", "extensions", "subagent");
		const [theirs, ours] = await Promise.all([
			runRpcSession([pi.node, pi.cli], unit),
			runRpcSession([ensureBinary()], unit),
		]);
		type Cmd = { name: string; source: string; sourceInfo: Record<string, unknown> };
		// pi 0.87.1 also lists its own built-in inline extension's command; only the unit's commands compare.
		const of = (session: typeof ours) =>
			((session.responses.commands as { data: { commands: Cmd[] } }).data.commands ?? []).filter(
				(c) => !String(c.sourceInfo.path).startsWith("<inline:"),
			);
		expect(of(ours)).toEqual(of(theirs));
		expect(of(ours).map((c) => `${c.source}:${c.name}`)).toEqual([
			"prompt:implement-and-review",
			"prompt:implement",
			"prompt:scout-and-plan",
		]);
	}, 240_000);
});
