/**
 * `BUN_BE_BUN=1` turns the binary into Bun, so only the package manager's own install child may get it: pi removes
 * it from its environment at start, and no extension (nor any tool or bash child, which inherit that environment)
 * sees it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const root = join(import.meta.dir, "..", "..", "..");

test("an extension and its children never see BUN_BE_BUN", async () => {
	const dir = makeTempDir("pi-bunbebun-");
	const out = join(dir, "seen.txt");
	writeTree(dir, {
		"ext.ts": `import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
export default function () {
	const child = execSync("echo child:\${BUN_BE_BUN:-unset}", { encoding: "utf8" }).trim();
	writeFileSync(${JSON.stringify(out)}, "ext:" + (process.env.BUN_BE_BUN ?? "unset") + " " + child);
}
`,
	});
	const proc = Bun.spawn([process.execPath, join(root, "src", "main.ts"), "-e", join(dir, "ext.ts"), "--help"], {
		cwd: dir,
		env: { ...process.env, HOME: dir, BUN_BE_BUN: "1" },
		stdout: "pipe",
		stderr: "pipe",
	});
	await proc.exited;
	expect(readFileSync(out, "utf8")).toBe("ext:unset child:unset");
});
