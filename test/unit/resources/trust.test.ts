import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentPaths } from "../../../src/config/index.ts";
import {
	decideProjectTrust,
	hasProtectedProjectResources,
	parentTrustPath,
	type TrustDecisionInput,
	TrustStore,
} from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const base: TrustDecisionInput = { mode: "print", hasProtectedResources: true };

describe("trust decision", () => {
	test.each<[string, Partial<TrustDecisionInput>, boolean | "ask", string]>([
		[
			"--approve wins over everything",
			{ approve: true, handlerDecision: "no", remembered: false, defaultProjectTrust: "never" },
			true,
			"cli",
		],
		[
			"--no-approve wins over everything",
			{ approve: false, handlerDecision: "yes", remembered: true, defaultProjectTrust: "always" },
			false,
			"cli",
		],
		[
			"nothing protected → trusted",
			{ hasProtectedResources: false, defaultProjectTrust: "never" },
			true,
			"nothing-protected",
		],
		["handler yes beats a saved no", { handlerDecision: "yes", remembered: false }, true, "extension"],
		["handler no beats a saved yes", { handlerDecision: "no", remembered: true }, false, "extension"],
		[
			"undecided handler falls through to the saved decision",
			{ handlerDecision: "undecided", remembered: true },
			true,
			"saved",
		],
		["saved no beats defaultProjectTrust always", { remembered: false, defaultProjectTrust: "always" }, false, "saved"],
		["default always", { defaultProjectTrust: "always" }, true, "default"],
		["default never", { defaultProjectTrust: "never", mode: "interactive" }, false, "default"],
		["ask + interactive → ask", { mode: "interactive" }, "ask", "default"],
		["ask + print → not trusted", { mode: "print", defaultProjectTrust: "ask" }, false, "non-interactive"],
		["ask + json → not trusted", { mode: "json" }, false, "non-interactive"],
		["ask + rpc → not trusted", { mode: "rpc" }, false, "non-interactive"],
	])("%s", (_name, input, trusted, reason) => {
		expect(decideProjectTrust({ ...base, ...input })).toEqual({ trusted, reason: reason as never });
	});
});

describe("protected project resources", () => {
	test.each([
		"settings.json",
		"extensions/",
		"skills/",
		"prompts/",
		"themes/",
		"SYSTEM.md",
		"APPEND_SYSTEM.md",
	])(".pi/%s needs trust", (entry) => {
		const home = makeTempDir();
		const cwd = join(home, "p");
		if (entry.endsWith("/")) mkdirSync(join(cwd, ".pi", entry), { recursive: true });
		else writeTree(cwd, { [`.pi/${entry}`]: "{}" });
		expect(hasProtectedProjectResources(cwd, { HOME: home })).toBe(true);
	});

	test("a bare .pi, AGENTS.md and other .pi files do not; .agents/skills in cwd or an ancestor does; ~/.agents/skills does not", () => {
		const home = makeTempDir();
		const cwd = join(home, "work", "p");
		writeTree(cwd, { ".pi/sessions/x": "", "AGENTS.md": "x" });
		writeTree(home, { ".agents/skills/u/SKILL.md": "x" });
		expect(hasProtectedProjectResources(cwd, { HOME: home })).toBe(false);
		mkdirSync(join(home, "work", ".agents", "skills"), { recursive: true });
		expect(hasProtectedProjectResources(cwd, { HOME: home })).toBe(true);
	});
});

describe("TrustStore", () => {
	test("remembers decisions per canonical folder; the closest one applies to sub-folders", async () => {
		const agentDir = makeTempDir();
		const root = realpathSync(makeTempDir());
		const child = join(root, "a", "b");
		mkdirSync(child, { recursive: true });
		const store = new TrustStore(agentDir);
		expect(store.get(child)).toBeUndefined();
		await store.set(root, true);
		expect(store.getEntry(child)).toEqual({ path: root, decision: true });
		await store.set(join(root, "a"), false);
		expect(store.get(child)).toBe(false);
		await store.setMany([
			{ path: join(root, "a"), decision: null },
			{ path: child, decision: true },
		]);
		expect(JSON.parse(readFileSync(agentPaths.trust(agentDir), "utf8"))).toEqual({ [root]: true, [child]: true });
		expect(parentTrustPath(child)).toBe(join(root, "a"));
		expect(parentTrustPath("/")).toBeUndefined();
	});

	test("an unreadable trust.json is reported, ignored for reads, and never overwritten", async () => {
		const agentDir = makeTempDir();
		writeFileSync(agentPaths.trust(agentDir), "{oops");
		const store = new TrustStore(agentDir);
		expect(store.get(agentDir)).toBeUndefined();
		expect(store.getError()).toContain("invalid JSON");
		await expect(store.set(agentDir, true)).rejects.toThrow("not writing");
		expect(readFileSync(agentPaths.trust(agentDir), "utf8")).toBe("{oops");
	});

	test("values other than true/false/null are reported and skipped", () => {
		const agentDir = makeTempDir();
		const dir = realpathSync(makeTempDir());
		writeFileSync(agentPaths.trust(agentDir), JSON.stringify({ [dir]: "yes" }));
		const store = new TrustStore(agentDir);
		expect(store.get(dir)).toBeUndefined();
		expect(store.getError()).toContain("must be true, false or null");
	});
});
