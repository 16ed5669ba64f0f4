/**
 * `pi update`'s replacement of a binary, in process against a loopback release site whose binaries are small
 * stand-ins (shell scripts answering --version): update, up to date, --force, refused downloads that leave the old
 * binary, package-manager folders, and rollback.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runUpdate } from "../../../src/cli/update/index.ts";
import { previousPath, rollback, type SelfUpdateContext, selfUpdate } from "../../../src/cli/update/self-update.ts";
import { standInBinary, startReleaseSite } from "../../helpers/release-server.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const site = startReleaseSite();
site.publish("1.0.0");
site.publish("1.1.0");
afterAll(() => site.stop());

function installed(version = "1.0.0"): { ctx: SelfUpdateContext; lines: string[] } {
	const dir = makeTempDir("pi-update-");
	const binary = join(dir, "pi");
	writeFileSync(binary, standInBinary(version, "linux-x64"), { mode: 0o755 });
	const lines: string[] = [];
	return {
		lines,
		ctx: {
			binary,
			version,
			target: "linux-x64",
			platform: "linux",
			base: site.url,
			fetch: (url) => fetch(url),
			say: (l) => lines.push(l),
		},
	};
}

const versionOf = (binary: string) => Bun.spawnSync([binary, "--version"]).stdout.toString().trim();

describe("pi update", () => {
	test("replaces the binary with the newest release and keeps the old one for --rollback", async () => {
		const { ctx, lines } = installed();
		expect(await selfUpdate(ctx)).toBe("1.1.0");
		expect(versionOf(ctx.binary)).toBe("1.1.0");
		expect(versionOf(previousPath(ctx.binary))).toBe("1.0.0");
		expect(lines).toEqual(["pi updated: 1.0.0 → 1.1.0 (the previous one is kept for pi update --rollback)"]);
		await rollback(ctx);
		expect(versionOf(ctx.binary)).toBe("1.0.0");
		expect(versionOf(previousPath(ctx.binary))).toBe("1.1.0");
		expect(lines.at(-1)).toBe("pi rolled back to 1.0.0");
	});

	test("up to date does nothing; --force reinstalls; --version picks a release", async () => {
		const { ctx, lines } = installed("1.1.0");
		const before = readFileSync(ctx.binary);
		expect(await selfUpdate(ctx)).toBe("1.1.0");
		expect(lines).toEqual(["pi is up to date (1.1.0)"]);
		expect(existsSync(previousPath(ctx.binary))).toBe(false);
		expect(readFileSync(ctx.binary)).toEqual(before);
		await selfUpdate(ctx, { force: true });
		expect(existsSync(previousPath(ctx.binary))).toBe(true);
		await selfUpdate(ctx, { version: "1.0.0" });
		expect(versionOf(ctx.binary)).toBe("1.0.0");
	});

	test("a corrupt or cut download, an HTML answer or a missing release is refused and the binary is untouched", async () => {
		site.publish("2.0.0");
		const { ctx } = installed();
		const before = readFileSync(ctx.binary);
		site.tamper("2.0.0", "pi-linux-x64.tar.gz", "corrupt");
		await expect(selfUpdate(ctx)).rejects.toThrow(
			/^pi update: checksum mismatch for pi-linux-x64\.tar\.gz .*: nothing was replaced$/,
		);
		site.tamper("2.0.0", "pi-linux-x64.tar.gz", "truncate");
		await expect(selfUpdate(ctx)).rejects.toThrow("checksum mismatch");
		site.tamper("2.0.0", "manifest.json", "html");
		await expect(selfUpdate(ctx)).rejects.toThrow("manifest.json is an HTML page, not a release manifest");
		await expect(selfUpdate(ctx, { version: "7.7.7" })).rejects.toThrow("/download/v7.7.7/manifest.json answered 404");
		expect(readFileSync(ctx.binary)).toEqual(before);
		expect(existsSync(previousPath(ctx.binary))).toBe(false);
		site.publish("1.1.0");
	});

	test("a download that does not run as the version it claims leaves the old binary (an interrupted update)", async () => {
		site.publish("3.0.0");
		const { ctx } = installed();
		const before = readFileSync(ctx.binary);
		const lying = {
			...ctx,
			fetch: async (url: string) =>
				url.endsWith("manifest.json")
					? Response.json({ version: "3.0.1", targets: { "linux-x64": { file: "pi-linux-x64.tar.gz" } } })
					: fetch(url.replace("3.0.1", "3.0.0")),
		};
		await expect(selfUpdate(lying)).rejects.toThrow('the downloaded pi says "3.0.0", not 3.0.1: pi is unchanged');
		expect(readFileSync(ctx.binary)).toEqual(before);
		const cut = {
			...ctx,
			fetch: async (url: string) => {
				if (url.endsWith(".tar.gz")) throw new Error("connection reset");
				return fetch(url);
			},
		};
		await expect(selfUpdate(cut)).rejects.toThrow("cannot reach");
		expect(readFileSync(ctx.binary)).toEqual(before);
		// Nothing staged is left behind next to it.
		expect(readdirSync(dirname(ctx.binary)).filter((f) => f !== ".pi.update.lock")).toEqual(["pi"]);
		site.publish("1.1.0");
	});

	test("package-manager installs are refused with the command to use; rollback needs a previous binary", async () => {
		const { ctx } = installed();
		await expect(selfUpdate({ ...ctx, binary: "/nix/store/abc-pi/bin/pi" })).rejects.toThrow(
			"installed by a package manager",
		);
		await expect(selfUpdate({ ...ctx, binary: "/opt/homebrew/Cellar/pi/1.0.0/bin/pi" })).rejects.toThrow(
			"brew upgrade pi",
		);
		await expect(rollback(ctx)).rejects.toThrow("there is no previous pi");
	});

	test("the command: self aliases go to the release site, package targets to the package manager", async () => {
		const lines: string[] = [];
		const errors: string[] = [];
		const env = { PI_BASE_URL: site.url };
		const deps = { env, say: (l: string) => lines.push(l), warn: (l: string) => errors.push(l) };
		// A run from the sources has no release target.
		await expect(runUpdate(["self"], deps)).rejects.toThrow("runs from its sources");
		await expect(runUpdate(["--self", "--version", "1.1.0"], deps)).rejects.toThrow("runs from its sources");
		expect(await runUpdate(["--bogus"], deps)).toBe(1);
		expect(errors).toEqual([
			'Unknown option --bogus for "update".',
			'Use "pi --help" or "pi update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--approve|--no-approve] [--force]".',
		]);
		errors.length = 0;
		expect(await runUpdate(["npm:foo", "--rollback"], deps)).toBe(1);
		expect(errors[0]).toContain("--rollback and --version update pi itself");
	});
});
