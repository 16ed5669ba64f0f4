/**
 * The package-manager bench's packages: the target's dependency closure has exactly the size asked for and installs
 * from the loopback registry with Bun's package manager; the small pi packages carry a prompt and a skill each.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { smallPackages, targetPackages } from "../../scripts/bench/packages-fixtures.ts";
import { registryEnv, startRegistry } from "../support/npm-registry.ts";

const root = mkdtempSync(join(tmpdir(), "pi-bench-fixtures-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("bench-target's closure holds 30 packages and installs from the loopback registry", async () => {
	const { target, all } = targetPackages(30, 4);
	expect(all.length).toBe(31);
	expect(all.at(-1)).toBe(target);
	const reg = await startRegistry(all);
	try {
		const home = join(root, "home");
		mkdirSync(home, { recursive: true });
		writeFileSync(
			join(root, "package.json"),
			JSON.stringify({ private: true, dependencies: { [target.name]: "1.0.0" } }),
		);
		const child = Bun.spawn([process.execPath, "install"], {
			cwd: root,
			env: { ...process.env, ...registryEnv(reg, home) },
			stdout: "pipe",
			stderr: "pipe",
		});
		const err = await new Response(child.stderr).text();
		expect(await child.exited, err).toBe(0);
		const installed = readdirSync(join(root, "node_modules")).filter((name) => name.startsWith("bench-"));
		expect(installed.length).toBe(31);
		expect(existsSync(join(root, "node_modules", "bench-target", "skills", "bench-skill", "SKILL.md"))).toBe(true);
	} finally {
		reg.stop();
	}
}, 60_000);

test("small packages give a prompt and a skill each, and an extension when asked", () => {
	const plain = smallPackages(50, "resources");
	expect(plain.map((p) => p.name)).toContain("bench-pkg-50");
	expect(plain[0]?.pi).toEqual({ prompts: ["./prompts"], skills: ["./skills"] });
	expect(Object.keys(plain[0]?.files ?? {})).toEqual(["prompts/p01.md", "skills/s01/SKILL.md"]);
	const withCode = smallPackages(2, "extensions");
	expect(withCode[1]?.pi?.extensions).toEqual(["./extensions"]);
	expect(withCode[1]?.files?.["extensions/index.ts"]).toContain("export default");
});
