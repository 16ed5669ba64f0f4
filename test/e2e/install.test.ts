/**
 * scripts/install.sh against a loopback release site (test/helpers/release-server.ts): platform detection with
 * `uname`, `ldd` and `sysctl` stubbed on PATH (and the CPU flags from a stub cpuinfo file), checksum enforcement,
 * broken downloads, install folders, re-runs and PATH advice. Needs curl or wget and sh; skips saying why otherwise.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startReleaseSite } from "../helpers/release-server.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

const INSTALLER = join(import.meta.dir, "..", "..", "scripts", "install.sh");
const missing =
	["sh", "tar", "awk"].find((tool) => !Bun.which(tool)) ??
	(Bun.which("curl") || Bun.which("wget") ? undefined : "curl or wget");
if (missing) console.log(`install.sh: skipped, ${missing} is not installed`);

const site = startReleaseSite();
site.publish("1.2.3");
site.publish("1.3.0");
afterAll(() => site.stop());

interface Machine {
	os?: string;
	arch?: string;
	musl?: boolean;
	avx2?: boolean;
	rosetta?: boolean;
}

interface Run {
	exitCode: number;
	stdout: string;
	stderr: string;
	home: string;
	dir: string;
}

/** A machine: stub `uname`, `ldd`, `sysctl` first on PATH, a cpuinfo file, and a fresh HOME. */
function machine(m: Machine = {}, home = makeTempDir("pi-install-")): { home: string; env: Record<string, string> } {
	const stubs = join(home, "stubs");
	writeTree(stubs, {
		uname: `#!/bin/sh\ncase "$1" in -s) echo ${m.os ?? "Linux"};; -m) echo ${m.arch ?? "x86_64"};; *) echo ${m.os ?? "Linux"};; esac\n`,
		ldd: m.musl ? "#!/bin/sh\necho 'musl libc (x86_64)' >&2\nexit 1\n" : "#!/bin/sh\necho 'ldd (GNU libc) 2.36'\n",
		sysctl: `#!/bin/sh\necho ${m.rosetta ? 1 : 0}\n`,
		cpuinfo: `flags\t\t: fpu sse2 ${m.avx2 === false ? "" : "avx2 "}bmi2\n`,
	});
	for (const name of ["uname", "ldd", "sysctl"]) chmodSync(join(stubs, name), 0o755);
	return {
		home,
		env: {
			HOME: home,
			PATH: `${stubs}:/usr/local/bin:/usr/bin:/bin`,
			SHELL: "/bin/bash",
			PI_INSTALL_CPUINFO: join(stubs, "cpuinfo"),
			PI_BASE_URL: site.url,
		},
	};
}

async function install(
	args: string[],
	m: Machine = {},
	extra: Record<string, string> = {},
	home?: string,
): Promise<Run> {
	const { env, home: h } = machine(m, home);
	const dir = extra.PI_INSTALL_DIR ?? join(h, ".local", "bin");
	const proc = Bun.spawn(["sh", INSTALLER, ...args], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	return { exitCode: await proc.exited, stdout, stderr, home: h, dir };
}

/** What the installed stand-in says it is (its target), or undefined when nothing is installed. */
function installedTarget(dir: string): string | undefined {
	const bin = join(dir, "pi");
	if (!existsSync(bin)) return undefined;
	return Bun.spawnSync([bin]).stdout.toString().trim();
}

describe.skipIf(missing !== undefined)("install.sh", () => {
	test("detects OS, CPU, Rosetta, musl and missing AVX2, and installs that target's binary", async () => {
		const cases: Array<[Machine, string]> = [
			[{}, "linux-x64"],
			[{ avx2: false }, "linux-x64-baseline"],
			[{ arch: "aarch64" }, "linux-arm64"],
			[{ musl: true }, "linux-x64-musl"],
			[{ musl: true, arch: "aarch64" }, "linux-arm64-musl"],
			[{ os: "Darwin", arch: "arm64" }, "darwin-arm64"],
			[{ os: "Darwin", arch: "x86_64" }, "darwin-x64"],
			[{ os: "Darwin", arch: "x86_64", rosetta: true }, "darwin-arm64"],
		];
		const runs = await Promise.all(cases.map(([m]) => install(["--no-modify-path"], m)));
		runs.forEach((run, i) => {
			expect(run.stderr).toBe("");
			expect(run.exitCode).toBe(0);
			expect(installedTarget(run.dir)).toBe(cases[i]?.[1]);
			expect(run.stdout).toContain(`pi 1.3.0 installed at ${run.dir}/pi`);
		});
	}, 60_000);

	test("an unsupported platform is a one-line error", async () => {
		const bsd = await install([], { os: "FreeBSD" });
		expect(bsd.exitCode).toBe(1);
		expect(bsd.stderr).toBe(
			"pi install: unsupported operating system: FreeBSD (pi is built for Linux, macOS and Windows)\n",
		);
		const mingw = await install([], { os: "MINGW64_NT-10.0" });
		expect(mingw.stderr).toBe("pi install: on Windows, run install.ps1 in PowerShell instead\n");
		const riscv = await install([], { arch: "riscv64" });
		expect(riscv.stderr).toBe("pi install: unsupported CPU architecture: riscv64 (pi is built for x64 and arm64)\n");
	});

	test("--version and PI_VERSION pick a release; one that does not exist fails without installing", async () => {
		const pinned = await install(["--version", "1.2.3", "--no-modify-path"]);
		expect(pinned.exitCode).toBe(0);
		expect(Bun.spawnSync([join(pinned.dir, "pi"), "--version"]).stdout.toString()).toBe("1.2.3\n");
		const byEnv = await install(["--no-modify-path"], {}, { PI_VERSION: "v1.2.3" });
		expect(byEnv.stdout).toContain("pi 1.2.3 installed");
		const none = await install(["--version", "9.9.9"]);
		expect(none.exitCode).toBe(1);
		expect(none.stderr).toContain("download failed:");
		expect(none.stderr).toContain("/download/v9.9.9/SHA256SUMS");
		expect(existsSync(join(none.dir, "pi"))).toBe(false);
		const bad = await install(["--version", "next"]);
		expect(bad.stderr).toBe("pi install: --version: not a version: next (expected x.y.z or latest)\n");
	});

	test("a corrupt or truncated archive and an HTML answer are refused; the installed pi is kept", async () => {
		const first = await install(["--version", "1.2.3", "--no-modify-path"]);
		expect(first.exitCode).toBe(0);
		const before = readFileSync(join(first.dir, "pi"));
		site.publish("2.0.0");
		site.tamper("2.0.0", "pi-linux-x64.tar.gz", "corrupt");
		const corrupt = await install(["--version", "2.0.0"], {}, {}, first.home);
		expect(corrupt.exitCode).toBe(1);
		expect(corrupt.stderr).toMatch(
			/^pi install: checksum mismatch for pi-linux-x64\.tar\.gz \(expected [0-9a-f]{64}, got [0-9a-f]{64}\): nothing was installed\n$/,
		);
		site.tamper("2.0.0", "pi-linux-x64.tar.gz", "truncate");
		const truncated = await install(["--version", "2.0.0"], {}, {}, first.home);
		expect(truncated.stderr).toContain("checksum mismatch");
		site.tamper("2.0.0", "SHA256SUMS", "html");
		const html = await install(["--version", "2.0.0"], {}, {}, first.home);
		expect(html.stderr).toContain("SHA256SUMS is an HTML page, not a checksum list");
		expect(readFileSync(join(first.dir, "pi"))).toEqual(before);
		site.publish("1.3.0"); // latest again for the other tests
	});

	test("re-running the same version changes nothing; PATH is added to the rc file once", async () => {
		const first = await install([]);
		expect(first.exitCode).toBe(0);
		const bashrc = join(first.home, ".bashrc");
		expect(readFileSync(bashrc, "utf8")).toBe(`\n# pi\nexport PATH="${first.dir}:$PATH"\n`);
		expect(first.stdout).toContain(`added ${first.dir} to PATH in ${bashrc}`);
		const inode = statSync(join(first.dir, "pi")).ino;
		const again = await install([], {}, {}, first.home);
		expect(again.exitCode).toBe(0);
		expect(again.stdout).toContain(`pi 1.3.0 is already installed at ${first.dir}/pi`);
		expect(statSync(join(first.dir, "pi")).ino).toBe(inode);
		expect(readFileSync(bashrc, "utf8")).toBe(`\n# pi\nexport PATH="${first.dir}:$PATH"\n`);
	});

	test("--no-modify-path prints the exact line for the user's shell and edits nothing", async () => {
		const run = await install(["--no-modify-path"], {}, { SHELL: "/usr/bin/fish" });
		expect(run.stdout).toContain(`  fish_add_path "${run.dir}"`);
		expect(existsSync(join(run.home, ".config", "fish", "config.fish"))).toBe(false);
	});

	test("an install folder that cannot be created is a one-line error", async () => {
		const home = makeTempDir("pi-install-");
		writeFileSync(join(home, "file"), "not a folder");
		const run = await install([], {}, { PI_INSTALL_DIR: join(home, "file", "bin") });
		expect(run.exitCode).toBe(1);
		expect(run.stderr).toContain(`cannot create ${join(home, "file", "bin")}`);
	});
});
