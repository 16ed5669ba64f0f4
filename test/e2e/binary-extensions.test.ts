/**
 * The compiled binary, copied away from the repo (no node_modules anywhere near it), loading extensions from a
 * temp HOME: bundled host modules, an extension's own dependency, bad extensions, and the folder pi starts in
 * unable to inject code or environment.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PI_COMPAT_VERSION } from "../../src/util/index.ts";
import { ensureBinary, runPi } from "../helpers/binary.ts";
import {
	BAD_EXTENSIONS,
	EXPECTED_PROBES,
	writeBadExtensions,
	writeFeatureExtensions,
} from "../helpers/extension-fixtures.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

let binary: string;
beforeAll(() => {
	const dir = makeTempDir("pi-bin-");
	binary = join(dir, "pi");
	copyFileSync(ensureBinary(), binary);
});

function home(): { home: string; extensions: string } {
	const home = makeTempDir("pi-home-");
	const extensions = join(home, ".pi", "agent", "extensions");
	mkdirSync(extensions, { recursive: true });
	return { home, extensions };
}

const HELLO = `
import { Type } from "@sinclair/typebox";
import { VERSION } from "@mariozechner/pi-coding-agent";
export default function (pi) {
	const schema = Type.Object({ name: Type.String() });
	pi.registerCommand("hello", {
		description: "greet",
		handler: async (args) => { console.log("hello " + (args || "world") + " from " + schema.type + " v" + VERSION); },
	});
}
`;

describe("binary loads extensions with no node_modules", () => {
	test("hello.ts with bundled typebox and pi-coding-agent runs via -p /hello", () => {
		const { home: h, extensions } = home();
		writeTree(extensions, { "hello.ts": HELLO });
		// VERSION is the pi version whose API the binary implements (not `pi --version`, the binary's own).
		const version = PI_COMPAT_VERSION;
		const run = runPi(["-p", "/hello there"], { home: h, binary });
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe(`hello there from object v${version}\n`);
		expect(run.exitCode).toBe(0);
	});

	test("every loader feature, including a folder extension with its own node_modules/ms", () => {
		const { home: h, extensions } = home();
		const names = writeFeatureExtensions(extensions);
		for (const name of names) {
			const run = runPi(["-p", `/probe-${name}`], { home: h, binary });
			expect(run.stderr).toBe("");
			expect(JSON.parse(run.stdout)).toEqual({ [name]: EXPECTED_PROBES[name as keyof typeof EXPECTED_PROBES] });
		}
	});

	test("a host package in an extension's dependencies is warned about, and the host copy is used", () => {
		const { home: h, extensions } = home();
		writeFeatureExtensions(extensions);
		writeTree(extensions, {
			"with-deps/package.json": JSON.stringify({
				type: "module",
				dependencies: { ms: "2", "@sinclair/typebox": "0.34" },
				pi: { extensions: ["./src/index.ts"] },
			}),
		});
		const run = runPi(["-p", "/probe-deps"], { home: h, binary });
		expect(run.stderr).toBe(
			`extension ${join(extensions, "with-deps/package.json")}: warning: "@sinclair/typebox" is provided by pi; list it in peerDependencies (the bundled copy is used)\n`,
		);
		expect(JSON.parse(run.stdout)).toEqual({ deps: { ms: "1m", typebox: "host" } });
	});

	test("bad extensions print one line each; the good one still runs and pi exits 0", () => {
		const { home: h, extensions } = home();
		writeBadExtensions(extensions);
		writeTree(extensions, { "hello.ts": HELLO });
		const run = runPi(["-p", "/hello"], { home: h, binary });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toStartWith("hello world");
		const lines = run.stderr.trimEnd().split("\n");
		expect(lines).toHaveLength(Object.keys(BAD_EXTENSIONS).length);
		for (const [file, { reason }] of Object.entries(BAD_EXTENSIONS)) {
			const line = lines.find((l) => l.startsWith(`extension ${join(extensions, file)}: `));
			expect(line).toContain(reason);
		}
	});

	test("the folder pi starts in cannot inject preload code (bunfig.toml) or variables (.env)", () => {
		const { home: h, extensions } = home();
		writeTree(extensions, {
			"env.ts": `export default function (pi) { pi.registerCommand("env", { handler: async () => console.log("INJECTED=" + (process.env.PI_INJECTED ?? "no")) }); }`,
		});
		const repo = makeTempDir("pi-repo-");
		writeTree(repo, {
			".env": "PI_INJECTED=yes\n",
			"bunfig.toml": 'preload = ["./evil.ts"]\n',
			"evil.ts": `require("node:fs").writeFileSync(${JSON.stringify(join(repo, "pwned"))}, "x");`,
		});
		const run = runPi(["-p", "/env"], { home: h, cwd: repo, binary });
		expect(run.stdout).toBe("INJECTED=no\n");
		expect(existsSync(join(repo, "pwned"))).toBe(false);
	});
});

describe("where extensions come from", () => {
	const cmd = (name: string) =>
		`export default function (pi) { pi.registerCommand("${name}", { handler: async () => console.log("${name}") }); }\n`;

	test("project .pi/extensions, settings paths, -e; --no-extensions keeps only -e", () => {
		const { home: h, extensions } = home();
		const repo = makeTempDir("pi-repo-");
		writeTree(extensions, { "g.ts": cmd("g") });
		writeTree(repo, { ".pi/extensions/p.ts": cmd("p"), "cli.ts": cmd("c") });
		writeTree(join(h, ".pi/agent"), {
			"settings.json": JSON.stringify({ extensions: ["./more/s.ts"] }),
			"more/s.ts": cmd("s"),
		});
		for (const name of ["g", "s"]) {
			expect(runPi(["-p", `/${name}`], { home: h, cwd: repo, binary }).stdout).toBe(`${name}\n`);
		}
		// The project's own extensions load only when the project is trusted.
		const untrusted = runPi(["-p", "/p"], { home: h, cwd: repo, binary });
		expect(untrusted.stderr).toContain("Skipping this folder's .pi resources (the project is not trusted)");
		expect(untrusted.stdout).toBe("");
		expect(runPi(["--approve", "-p", "/p"], { home: h, cwd: repo, binary }).stdout).toBe("p\n");
		expect(runPi(["-e", "./cli.ts", "-p", "/c"], { home: h, cwd: repo, binary }).stdout).toBe("c\n");
		const off = runPi(["--no-extensions", "-e", "./cli.ts", "-p", "/c", "/g"], { home: h, cwd: repo, binary });
		expect(off.stdout).toBe("c\n");
		expect(off.exitCode).toBe(1);
	});

	test("PI_CODING_AGENT_DIR moves the agent dir", () => {
		const { home: h } = home();
		const agent = makeTempDir("pi-agent-");
		writeTree(agent, { "extensions/moved.ts": cmd("moved") });
		const run = runPi(["-p", "/moved"], { home: h, binary, env: { PI_CODING_AGENT_DIR: agent } });
		expect(run.stdout).toBe("moved\n");
	});

	test("a missing -e path and an invalid settings file are one line each, and pi still starts", () => {
		const { home: h, extensions } = home();
		writeTree(extensions, { "g.ts": cmd("g") });
		writeTree(join(h, ".pi/agent"), { "settings.json": "{ nope" });
		const run = runPi(["-e", "./missing.ts", "-p", "/g"], { home: h, binary });
		expect(run.stdout).toBe("g\n");
		const lines = run.stderr.trimEnd().split("\n");
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^settings .*settings\.json: invalid JSON at line 1, column \d+ \(.*\); using defaults$/);
		expect(lines[1]).toBe(`extension ${join(h, "missing.ts")}: not found`);
	});
});

describe("extension flags", () => {
	test("are parsed from the command line and listed in --help", () => {
		const { home: h, extensions } = home();
		writeTree(extensions, {
			"flags.ts": `export default function (pi) {
	pi.registerFlag("plan", { type: "boolean", description: "Plan before acting" });
	pi.registerFlag("who", { type: "string", description: "Who to greet", default: "nobody" });
	pi.registerCommand("flags", { handler: async () => console.log(pi.getFlag("plan") + " " + pi.getFlag("who")) });
}`,
		});
		expect(runPi(["-p", "/flags"], { home: h, binary }).stdout).toBe("undefined nobody\n");
		expect(runPi(["--plan", "--who", "ann", "-p", "/flags"], { home: h, binary }).stdout).toBe("true ann\n");
		const help = runPi(["--help"], { home: h, binary }).stdout;
		expect(help).toContain("Extension CLI Flags:");
		expect(help).toMatch(/--plan\s+Plan before acting/);
		expect(help).toMatch(/--who <value>\s+Who to greet/);
		const bad = runPi(["--nope", "-p", "/flags"], { home: h, binary });
		expect(bad.exitCode).toBe(1);
		expect(bad.stderr).toBe("Error: Unknown option: --nope\n");
	});
});

describe("a command that throws", () => {
	test("is reported in one line naming the command; later messages still run; exit 1", () => {
		const { home: h, extensions } = home();
		writeTree(extensions, {
			"cmds.ts": `export default function (pi) {
	pi.registerCommand("boom", { handler: async () => { throw new Error("kaput\\nsecond line"); } });
	pi.registerCommand("ok", { handler: async () => console.log("still here") });
}`,
		});
		const run = runPi(["-p", "/boom", "/ok"], { home: h, binary });
		expect(run.stderr).toBe("Extension command /boom failed: kaput\n");
		expect(run.stdout).toBe("still here\n");
		expect(run.exitCode).toBe(1);
	});
});
