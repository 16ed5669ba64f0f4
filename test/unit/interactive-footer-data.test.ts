/** FooterData: the git branch (plain repo, worktree, detached, outside a repo), live branch changes, statuses. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FooterData, findGitPaths } from "../../src/modes/interactive/chrome/index.ts";

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function repo(head: string): string {
	const root = mkdtempSync(join(tmpdir(), "pi-footer-data-"));
	roots.push(root);
	mkdirSync(join(root, ".git"));
	writeFileSync(join(root, ".git", "HEAD"), `${head}\n`);
	mkdirSync(join(root, "src", "deep"), { recursive: true });
	return root;
}

describe("FooterData", () => {
	test("branch from a subfolder; detached HEAD; no repository", () => {
		const root = repo("ref: refs/heads/feature/x");
		const data = new FooterData(join(root, "src", "deep"));
		expect(data.getGitBranch()).toBe("feature/x");
		data.dispose();
		const detached = new FooterData(repo("0123456789abcdef0123456789abcdef01234567"));
		expect(detached.getGitBranch()).toBe("detached");
		detached.dispose();
		const outside = mkdtempSync(join(tmpdir(), "pi-footer-none-"));
		roots.push(outside);
		expect(findGitPaths(outside)).toBeNull();
	});

	test("a worktree's .git file points at its own HEAD and the common folder", () => {
		const main = repo("ref: refs/heads/main");
		const gitDir = join(main, ".git", "worktrees", "wt");
		mkdirSync(gitDir, { recursive: true });
		writeFileSync(join(gitDir, "HEAD"), "ref: refs/heads/topic\n");
		writeFileSync(join(gitDir, "commondir"), "../..\n");
		const wt = mkdtempSync(join(tmpdir(), "pi-footer-wt-"));
		roots.push(wt);
		writeFileSync(join(wt, ".git"), `gitdir: ${gitDir}\n`);
		expect(findGitPaths(wt)).toEqual({ repoDir: wt, commonGitDir: join(main, ".git"), headPath: join(gitDir, "HEAD") });
		const data = new FooterData(wt);
		expect(data.getGitBranch()).toBe("topic");
		data.dispose();
	});

	test("a checkout shows up and listeners hear of it", async () => {
		const root = repo("ref: refs/heads/main");
		const data = new FooterData(root);
		expect(data.getGitBranch()).toBe("main");
		const changed = new Promise<void>((done) => data.onBranchChange(done));
		writeFileSync(join(root, ".git", "HEAD.lock"), "ref: refs/heads/next\n");
		const { renameSync } = await import("node:fs");
		renameSync(join(root, ".git", "HEAD.lock"), join(root, ".git", "HEAD"));
		await Promise.race([changed, Bun.sleep(3000)]);
		expect(data.getGitBranch()).toBe("next");
		data.dispose();
	});

	test("extension statuses set, removed and cleared; provider count", () => {
		const data = new FooterData(tmpdir());
		data.setExtensionStatus("b", "two");
		data.setExtensionStatus("a", "one");
		data.setExtensionStatus("b", undefined);
		expect([...data.getExtensionStatuses()]).toEqual([["a", "one"]]);
		data.clearExtensionStatuses();
		expect(data.getExtensionStatuses().size).toBe(0);
		data.setAvailableProviderCount(3);
		expect(data.getAvailableProviderCount()).toBe(3);
		data.dispose();
	});
});
