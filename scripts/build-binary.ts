/**
 * `npm run build`: compiles src/main.ts into the single executable dist/pi.
 * - `--compile-autoload-package-json`: an extension's own dependency whose entry is not a root index.js resolves.
 * - no autoloading of bunfig.toml or .env from the folder pi starts in: a repo must not inject preload code or env.
 * - jiti is left out: it serves only Node (SDK) use and the binary never reaches it.
 * - `--splitting`: what is reached only through `import()` (the CLI behind `--version`, the SDK modules behind the
 *   first extension) becomes its own chunk inside the binary, loaded when first imported, so `pi --version` does not
 *   load the whole application.
 * - `--compile-jit-policy=4`: JavaScriptCore waits four times longer before compiling a function. Start-up code
 *   runs once or a few times, and compiling it costs more than interpreting it (`pi -p hello` 62.6 → 58.0 ms,
 *   median of 15 interleaved runs); main.ts restores the normal policy once a run lasts a second.
 * - `--bytecode-order`: the binary is built twice. The first build runs a print-mode turn against our mock LLM and
 *   an RPC `get_state` with `BUN_BYTECODE_ORDER_OUT`, recording which functions a start-up uses; the second build
 *   lays that bytecode out first (`pi -p hello` 62.0 → 59.7 ms, first RPC answer 49.7 → 46.5 ms, 21 interleaved
 *   runs). `PI_BUILD_NO_ORDER=1` skips it.
 * - provenance: the commit, its date and the target are compiled in (`pi --version --verbose`). The date is the
 *   commit's, not the clock's, so building the same commit twice gives the same bytes.
 * - another platform (the release script): `PI_BUILD_TARGET` (a Bun target such as `bun-darwin-arm64`) with
 *   `PI_BUILD_EXECUTABLE` (that target's Bun runtime), `PI_BUILD_OUTFILE`, and `PI_BUILD_ORDER_FILES` (orders
 *   recorded by a host build, since a foreign binary cannot run here). `PI_BUILD_KEEP_ORDER=<dir>` keeps the
 *   orders this build records. `PI_BUILD_RELEASE_BASE` is the release site `pi update` reads.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { startMockLlm } from "../test/support/mock-llm/index.ts";

const root = join(import.meta.dir, "..");
const target = process.env.PI_BUILD_TARGET;
const outfile =
	process.env.PI_BUILD_OUTFILE ??
	join(root, "dist", (target ? target.includes("windows") : process.platform === "win32") ? "pi.exe" : "pi");
mkdirSync(dirname(outfile), { recursive: true });

/** The commit and its date, from git; "unknown" outside a checkout. */
function provenance(): { commit: string; date: string } {
	const git = (...argv: string[]) => {
		const proc = Bun.spawnSync(["git", ...argv], { cwd: root, stdout: "pipe", stderr: "ignore" });
		return proc.exitCode === 0 ? proc.stdout.toString().trim() : "";
	};
	const commit = git("rev-parse", "HEAD");
	const dirty =
		commit !== "" && git("status", "--porcelain", "--untracked-files=no", "--", "src", "package.json") !== "";
	return {
		commit: commit ? `${commit}${dirty ? "-dirty" : ""}` : "unknown",
		date: git("show", "-s", "--format=%cI", "HEAD") || "unknown",
	};
}
const built = provenance();
const defines = [
	["PI_BUILD_COMMIT", built.commit],
	["PI_BUILD_DATE", built.date],
	["PI_BUILD_TARGET", target ?? `bun-${process.platform}-${process.arch}`],
	...(process.env.PI_BUILD_RELEASE_BASE ? [["PI_BUILD_RELEASE_BASE", process.env.PI_BUILD_RELEASE_BASE]] : []),
].flatMap(([name, value]) => ["--define", `${name}=${JSON.stringify(value)}`]);
const targetArgs = target
	? [
			`--target=${target}`,
			...(process.env.PI_BUILD_EXECUTABLE ? [`--compile-executable-path=${process.env.PI_BUILD_EXECUTABLE}`] : []),
		]
	: [];

const args = [
	"build",
	"--compile",
	"--splitting",
	"--bytecode",
	"--compile-jit-policy=4",
	"--format=esm",
	"--minify-syntax",
	"--minify-whitespace",
	"--sourcemap=none",
	"--compile-autoload-package-json",
	"--no-compile-autoload-bunfig",
	"--no-compile-autoload-dotenv",
	"--external",
	"jiti",
	"--external",
	"jiti/static",
	...defines,
	...targetArgs,
	join(root, "src", "main.ts"),
	"--outfile",
	outfile,
];
function compile(extra: string[]): void {
	const proc = Bun.spawnSync([process.execPath, ...args, ...extra], { cwd: root, stdout: "pipe", stderr: "pipe" });
	if (proc.exitCode !== 0) {
		process.stderr.write(proc.stdout.toString() + proc.stderr.toString());
		process.stderr.write(`build: bun build --compile failed (exit ${proc.exitCode})\n`);
		process.exit(1);
	}
}

/** Runs the binary as a user would start it, recording the functions it uses into `out`. */
async function record(home: string, out: string, argv: string[], stdin?: string): Promise<void> {
	const proc = Bun.spawn([outfile, ...argv], {
		cwd: home,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, BUN_BYTECODE_ORDER_OUT: out },
		stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	if ((await proc.exited) !== 0) throw new Error(`pi ${argv.join(" ")} failed while recording: ${err.trim()}`);
}

/** The start-ups to lay the bytecode out for, most common first: a print-mode turn, then RPC mode. */
async function recordOrder(dir: string): Promise<string[]> {
	const server = startMockLlm();
	try {
		const home = join(dir, "home");
		mkdirSync(join(home, ".pi", "agent"), { recursive: true });
		const mock = { baseUrl: server.url, api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-1" }] };
		writeFileSync(join(home, ".pi", "agent", "models.json"), JSON.stringify({ providers: { mock } }));
		server.push({ kind: "reply", text: "Hello!" });
		const files = [join(dir, "print.order"), join(dir, "rpc.order")];
		await record(home, files[0] as string, ["-p", "hello"]);
		await record(home, files[1] as string, ["--mode", "rpc"], '{"type":"get_state","id":"1"}\n');
		return files;
	} finally {
		server.stop();
	}
}

const started = performance.now();
const givenOrder = process.env.PI_BUILD_ORDER_FILES;
if (givenOrder) compile([`--bytecode-order=${givenOrder}`]);
else compile([]);
if (!givenOrder && process.env.PI_BUILD_NO_ORDER !== "1") {
	const dir = mkdtempSync(join(tmpdir(), "pi-build-order-"));
	try {
		let files: string[] | undefined;
		try {
			files = await recordOrder(dir);
		} catch (error) {
			// The first build is a complete binary; only its start-up layout is left unoptimised.
			console.warn(`build: no bytecode order recorded (${error instanceof Error ? error.message : String(error)})`);
		}
		if (files) {
			compile([`--bytecode-order=${files.join(",")}`]);
			const keep = process.env.PI_BUILD_KEEP_ORDER;
			if (keep) {
				mkdirSync(keep, { recursive: true });
				for (const file of files) copyFileSync(file, join(keep, basename(file)));
			}
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
console.log(`build: wrote ${outfile} in ${Math.round(performance.now() - started)} ms`);
