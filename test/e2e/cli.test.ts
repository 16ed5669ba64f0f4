/** The binary's basic command line: version, help, user errors as one line and a non-zero exit. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { runPi } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";

describe("pi command line", () => {
	const home = makeTempDir("pi-home-");

	test("--version and -v print the version", () => {
		for (const flag of ["--version", "-v"]) {
			const run = runPi([flag], { home });
			expect(run).toEqual({ stdout: `${pkg.version}\n`, stderr: "", exitCode: 0 });
		}
	});

	test("--version --verbose adds the commit, build date, Bun version and target", () => {
		const commit = Bun.spawnSync(["git", "rev-parse", "HEAD"], { stdout: "pipe", stderr: "ignore" });
		for (const args of [
			["--version", "--verbose"],
			["--verbose", "-v"],
		]) {
			const run = runPi(args, { home });
			expect(run.exitCode).toBe(0);
			const lines = run.stdout.trimEnd().split("\n");
			expect(lines[0]).toBe(pkg.version);
			const facts = Object.fromEntries(lines.slice(1).map((line) => line.split(": ", 2) as [string, string]));
			expect(Object.keys(facts)).toEqual(["commit", "built", "bun", "target"]);
			if (commit.exitCode === 0) expect(facts.commit).toStartWith(commit.stdout.toString().trim().slice(0, 12));
			expect(facts.bun).toBe(Bun.version);
			expect(facts.target).toBe(`bun-${process.platform}-${process.arch}`);
			expect(Number.isNaN(Date.parse(facts.built as string))).toBe(false);
		}
	});

	test("--help lists the options", () => {
		const run = runPi(["--help"], { home });
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain("Usage:");
		for (const flag of ["--print", "--mode", "--extension", "--no-extensions", "--model", "--continue"]) {
			expect(run.stdout).toContain(flag);
		}
	});

	test("user errors are one line on stderr with exit 1", () => {
		const cases: Array<[string[], string]> = [
			[["-x"], "Error: Unknown option: -x"],
			[["--model"], "Error: option --model needs a value (<pattern>)"],
			[["--mode", "yaml", "-p", "hi"], 'Error: --mode must be text, json or rpc (got "yaml")'],
			[["--bogus-flag"], "Error: Unknown option: --bogus-flag"],
		];
		for (const [args, message] of cases) {
			const run = runPi(args, { home });
			expect(run.stderr).toBe(`${message}\n`);
			expect(run.exitCode).toBe(1);
		}
	});

	test("a prompt with no model available says so in one line", () => {
		const run = runPi(["-p", "hello"], { home });
		expect(run.exitCode).toBe(1);
		expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
		expect(run.stderr).toStartWith("No API key found");
	});
});

describe("shipped examples", () => {
	const root = join(import.meta.dir, "..", "..");
	test("examples/extensions/hello.ts and typed-tool.ts load and run through the binary", () => {
		const home = makeTempDir("pi-home-");
		const run = runPi(
			[
				"-e",
				join(root, "examples/extensions/hello.ts"),
				"-e",
				join(root, "examples/extensions/typed-tool.ts"),
				"--greeting",
				"Hi",
				"-p",
				"/hello Ada",
			],
			{ home },
		);
		expect(run).toEqual({ stdout: "Hi, Ada!\n", stderr: "", exitCode: 0 });
	});
});
