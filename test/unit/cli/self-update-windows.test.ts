/**
 * `pi update` on Windows, run here with the platform given as win32: the release is a zip holding pi.exe, checked
 * against SHA256SUMS and read by our own zip reader, and the running pi.exe is renamed aside rather than replaced.
 * The file operations go through a stand-in that refuses what Windows refuses for a running executable (deleting
 * it, renaming another file over it), so a step that would fail on Windows fails here too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zip } from "../../../scripts/release/archive.ts";
import type { FileMoves } from "../../../src/cli/update/replace-windows.ts";
import { previousPath, rollback, type SelfUpdateContext, selfUpdate } from "../../../src/cli/update/self-update.ts";
import { standInBinary, startReleaseSite } from "../../helpers/release-server.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const site = startReleaseSite();
site.publish("1.0.0");
site.publish("1.1.0");
afterAll(() => site.stop());

/** Files Windows would treat as running executables, by identity (a rename keeps it). */
function windowsLikeMoves(): FileMoves & { run(path: string): void; exit(path: string): void } {
	const running = new Set<number>();
	const id = (path: string) => statSync(path, { throwIfNoEntry: false })?.ino;
	const busy = (path: string, what: string) => {
		const ino = id(path);
		if (ino !== undefined && running.has(ino)) throw new Error(`EBUSY: ${what} ${path}: the file is running`);
	};
	return {
		rename(from, to) {
			busy(to, "cannot replace");
			renameSync(from, to);
		},
		remove(path) {
			busy(path, "cannot delete");
			rmSync(path, { force: true });
		},
		run: (path) => running.add(id(path) as number),
		exit: (path) => running.delete(id(path) as number),
	};
}

function installed(version = "1.0.0") {
	const dir = makeTempDir("pi-update-win-");
	const binary = join(dir, "pi.exe");
	writeFileSync(binary, standInBinary(version, "windows-x64"), { mode: 0o755 });
	const moves = windowsLikeMoves();
	moves.run(binary); // the pi.exe doing the update
	const lines: string[] = [];
	const ctx: SelfUpdateContext = {
		binary,
		version,
		target: "windows-x64",
		platform: "win32",
		moves,
		base: site.url,
		fetch: (url) => fetch(url),
		say: (l) => lines.push(l),
	};
	return { ctx, moves, lines, dir };
}

const versionOf = (binary: string) => Bun.spawnSync([binary, "--version"]).stdout.toString().trim();
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("pi update on Windows", () => {
	test("renames the running pi.exe to pi.exe.previous and moves the new one in", async () => {
		const { ctx, lines, dir } = installed();
		expect(await selfUpdate(ctx)).toBe("1.1.0");
		expect(previousPath(ctx.binary, "win32")).toBe(`${ctx.binary}.previous`);
		expect(versionOf(ctx.binary)).toBe("1.1.0");
		expect(versionOf(`${ctx.binary}.previous`)).toBe("1.0.0");
		expect(lines).toEqual(["pi updated: 1.0.0 → 1.1.0 (the previous one is kept for pi update --rollback)"]);
		expect(readdirSync(dir).filter((f) => f !== ".pi.update.lock")).toEqual(["pi.exe", "pi.exe.previous"]);
	});

	test("a previous pi.exe that still runs is renamed aside and deleted by the next update once it has exited", async () => {
		const { ctx, moves, dir } = installed();
		await selfUpdate(ctx);
		// The new pi.exe now runs (and updates); the old one, pi.exe.previous, is still running too.
		moves.run(ctx.binary);
		await selfUpdate({ ...ctx, version: "1.1.0" }, { force: true });
		const old = readdirSync(dir).filter((f) => f.endsWith(".old"));
		expect(old).toHaveLength(1);
		expect(versionOf(join(dir, old[0] as string))).toBe("1.0.0");
		expect(versionOf(`${ctx.binary}.previous`)).toBe("1.1.0");
		// While it runs, the next update leaves it; after it exits, the next update removes it.
		await selfUpdate({ ...ctx, version: "1.1.0" }, { force: true });
		expect(readdirSync(dir).filter((f) => f.endsWith(".old")).length).toBeGreaterThanOrEqual(1);
		for (const f of readdirSync(dir).filter((name) => name.endsWith(".old"))) moves.exit(join(dir, f));
		await selfUpdate({ ...ctx, version: "1.1.0" }, { force: true });
		expect(readdirSync(dir).filter((f) => f.endsWith(".old"))).toEqual([]);
		expect(versionOf(ctx.binary)).toBe("1.1.0");
	});

	test("a checksum mismatch or a cut download replaces nothing", async () => {
		site.publish("2.0.0");
		const { ctx, dir } = installed();
		const before = readFileSync(ctx.binary);
		site.tamper("2.0.0", "pi-windows-x64.zip", "corrupt");
		await expect(selfUpdate(ctx)).rejects.toThrow(
			/^pi update: checksum mismatch for pi-windows-x64\.zip .*: nothing was replaced$/,
		);
		site.tamper("2.0.0", "pi-windows-x64.zip", "truncate");
		await expect(selfUpdate(ctx)).rejects.toThrow("checksum mismatch for pi-windows-x64.zip");
		expect(readFileSync(ctx.binary)).toEqual(before);
		expect(readdirSync(dir).filter((f) => f !== ".pi.update.lock")).toEqual(["pi.exe"]);
		site.publish("1.1.0");
	});

	test("a cut zip listed with its own checksum is refused by the zip reader, and nothing is replaced", async () => {
		const { ctx } = installed();
		const before = readFileSync(ctx.binary);
		const whole = zip([{ name: "pi.exe", data: standInBinary("1.2.0", "windows-x64"), mode: 0o755 }], 1_700_000_000);
		const cut = whole.subarray(0, whole.length - 30);
		const lying: SelfUpdateContext = {
			...ctx,
			fetch: async (url) => {
				if (url.endsWith("manifest.json")) {
					return Response.json({ version: "1.2.0", targets: { "windows-x64": { file: "pi-windows-x64.zip" } } });
				}
				if (url.endsWith("SHA256SUMS")) return new Response(`${sha256(cut)}  pi-windows-x64.zip\n`);
				return new Response(cut);
			},
		};
		await expect(selfUpdate(lying)).rejects.toThrow(
			"pi update: pi-windows-x64.zip: not a complete zip archive (no end of central directory): nothing was replaced",
		);
		const noExe = zip([{ name: "pi", data: standInBinary("1.2.0", "x"), mode: 0o755 }], 1_700_000_000);
		const wrong: SelfUpdateContext = {
			...lying,
			fetch: async (url) =>
				url.endsWith("SHA256SUMS")
					? new Response(`${sha256(noExe)}  pi-windows-x64.zip\n`)
					: url.endsWith(".zip")
						? new Response(noExe)
						: lying.fetch(url),
		};
		await expect(selfUpdate(wrong)).rejects.toThrow("pi-windows-x64.zip holds no pi.exe: nothing was replaced");
		expect(readFileSync(ctx.binary)).toEqual(before);
		expect(readdirSync(dirname(ctx.binary)).filter((f) => f !== ".pi.update.lock")).toEqual(["pi.exe"]);
	});

	test("--rollback swaps the running pi.exe with pi.exe.previous, and back", async () => {
		const { ctx, moves, lines } = installed();
		await expect(rollback(ctx)).rejects.toThrow("there is no previous pi");
		await selfUpdate(ctx);
		moves.run(ctx.binary); // the updated pi.exe runs the rollback
		await rollback(ctx);
		expect(versionOf(ctx.binary)).toBe("1.0.0");
		expect(versionOf(`${ctx.binary}.previous`)).toBe("1.1.0");
		expect(lines.at(-1)).toBe("pi rolled back to 1.0.0");
		moves.run(ctx.binary);
		await rollback(ctx);
		expect(versionOf(ctx.binary)).toBe("1.1.0");
		expect(existsSync(`${ctx.binary}.previous`)).toBe(true);
		expect(readdirSync(dirname(ctx.binary)).filter((f) => f.includes(".rollback"))).toEqual([]);
	});
});
