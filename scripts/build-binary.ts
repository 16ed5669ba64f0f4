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
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outfile = join(root, "dist", process.platform === "win32" ? "pi.exe" : "pi");
mkdirSync(join(root, "dist"), { recursive: true });

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
	join(root, "src", "main.ts"),
	"--outfile",
	outfile,
];
const started = performance.now();
const proc = Bun.spawnSync([process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
if (proc.exitCode !== 0) {
	process.stderr.write(proc.stdout.toString() + proc.stderr.toString());
	process.stderr.write(`build: bun build --compile failed (exit ${proc.exitCode})\n`);
	process.exit(1);
}
console.log(`build: wrote ${outfile} in ${Math.round(performance.now() - started)} ms`);
