/**
 * Project trust (pi 0.79+). Project `.pi/` settings, extensions, skills, prompts, themes and system-prompt files,
 * and project `.agents/skills` folders, load only when the project is trusted; context files never need trust.
 *
 * Decision order (docs/security.md): `--approve` / `--no-approve`; then, when the project has nothing protected,
 * trusted; then the first `project_trust` handler answering yes/no; then the closest saved decision in
 * `<agentDir>/trust.json`; then `defaultProjectTrust` (`always` / `never`); with `ask`, interactive mode asks the
 * user and the other modes (print, JSON, RPC) do not trust.
 */
import { dirname, join, resolve } from "node:path";
import {
	agentPaths,
	agentsSkillsDir,
	type DefaultProjectTrust,
	getProjectConfigDir,
	type JsonObject,
	readJsonObject,
	TRUST_GATED_PROJECT_ENTRIES,
	updateJsonFile,
	userAgentsSkillsDir,
} from "../config/index.ts";
import { ancestorsUpTo, canonicalPath, kindOf } from "./collect.ts";

export type TrustMode = "interactive" | "print" | "json" | "rpc";

export interface TrustDecisionInput {
	mode: TrustMode;
	/** `--approve` → true, `--no-approve` → false, neither → undefined. */
	approve?: boolean;
	/** Whether cwd has anything trust protects (see `hasProtectedProjectResources`). */
	hasProtectedResources: boolean;
	/** The first `project_trust` handler answer other than "undecided", if any. */
	handlerDecision?: "yes" | "no" | "undecided";
	/** The closest saved decision for cwd or a parent (`TrustStore.get`). */
	remembered?: boolean;
	/** Agent-dir `defaultProjectTrust`; default "ask". */
	defaultProjectTrust?: DefaultProjectTrust;
}

export type TrustReason = "cli" | "nothing-protected" | "extension" | "saved" | "default" | "non-interactive";

export interface TrustDecision {
	/** "ask": interactive mode must ask the user (the UI then decides and may save the answer). */
	trusted: boolean | "ask";
	reason: TrustReason;
}

export function decideProjectTrust(input: TrustDecisionInput): TrustDecision {
	if (input.approve !== undefined) return { trusted: input.approve, reason: "cli" };
	if (!input.hasProtectedResources) return { trusted: true, reason: "nothing-protected" };
	if (input.handlerDecision === "yes" || input.handlerDecision === "no") {
		return { trusted: input.handlerDecision === "yes", reason: "extension" };
	}
	if (input.remembered !== undefined) return { trusted: input.remembered, reason: "saved" };
	const fallback = input.defaultProjectTrust ?? "ask";
	if (fallback === "always") return { trusted: true, reason: "default" };
	if (fallback === "never") return { trusted: false, reason: "default" };
	return input.mode === "interactive"
		? { trusted: "ask", reason: "default" }
		: { trusted: false, reason: "non-interactive" };
}

/**
 * Whether cwd has project resources that trust protects: one of the trust-gated entries in `<cwd>/.pi`, or a
 * `.agents/skills` folder in cwd or any ancestor (the user's own `~/.agents/skills` does not count).
 */
export function hasProtectedProjectResources(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
	const configDir = getProjectConfigDir(resolve(cwd));
	if (TRUST_GATED_PROJECT_ENTRIES.some((entry) => kindOf(join(configDir, entry)) !== "missing")) return true;
	const userSkills = canonicalPath(userAgentsSkillsDir(env));
	return ancestorsUpTo(canonicalPath(cwd)).some((dir) => {
		const skills = agentsSkillsDir(dir);
		return kindOf(skills) === "dir" && canonicalPath(skills) !== userSkills;
	});
}

export interface TrustEntry {
	path: string;
	decision: boolean;
}

/**
 * Saved trust decisions: `<agentDir>/trust.json`, an object from canonical folder paths to `true`/`false`
 * (`null` is tolerated and means no decision). A decision applies to its folder and everything below it; the
 * closest one wins. Writes are locked and atomic. An unreadable file is reported and treated as empty.
 */
export class TrustStore {
	readonly path: string;
	private problem: string | undefined;

	constructor(agentDir: string) {
		this.path = agentPaths.trust(agentDir);
	}

	/** Why trust.json could not be used at the last read, if it could not. */
	getError(): string | undefined {
		return this.problem;
	}

	private read(): Record<string, boolean> {
		const read = readJsonObject(this.path);
		if (!read.ok) {
			this.problem = `${this.path}: ${read.reason}; saved trust decisions are ignored`;
			return {};
		}
		this.problem = undefined;
		const out: Record<string, boolean> = {};
		for (const [key, value] of Object.entries(read.data ?? {})) {
			if (typeof value === "boolean") out[key] = value;
			else if (value !== null) this.problem = `${this.path}: value for "${key}" must be true, false or null; ignored`;
		}
		return out;
	}

	/** The closest saved decision for cwd or one of its parents. */
	getEntry(cwd: string): TrustEntry | undefined {
		const data = this.read();
		for (const dir of ancestorsUpTo(canonicalPath(cwd))) {
			const decision = data[dir];
			if (decision !== undefined) return { path: dir, decision };
		}
		return undefined;
	}

	get(cwd: string): boolean | undefined {
		return this.getEntry(cwd)?.decision;
	}

	/** Saves (or with null, forgets) the decision for one folder. */
	set(cwd: string, decision: boolean | null): Promise<void> {
		return this.setMany([{ path: cwd, decision }]);
	}

	async setMany(updates: readonly { path: string; decision: boolean | null }[]): Promise<void> {
		await updateJsonFile(this.path, (data) => {
			for (const { path, decision } of updates) {
				const key = canonicalPath(path);
				if (decision === null) delete data[key];
				else data[key] = decision;
			}
			const sorted: JsonObject = {};
			for (const key of Object.keys(data).sort()) sorted[key] = data[key];
			return sorted;
		});
	}
}

/** The folder above cwd, offered as "trust the parent folder" (undefined at the filesystem root). */
export function parentTrustPath(cwd: string): string | undefined {
	const dir = canonicalPath(cwd);
	const parent = dirname(dir);
	return parent === dir ? undefined : parent;
}
