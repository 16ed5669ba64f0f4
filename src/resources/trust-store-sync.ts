/**
 * pi's SDK `ProjectTrustStore`: the same `<agentDir>/trust.json` as `TrustStore`, read and written synchronously
 * under the file lock, with pi's null-for-no-decision answers.
 */
import { dirname } from "node:path";
import { agentPaths, type JsonObject, readJsonObject, takeFileLockSync, writeFileAtomic } from "../config/index.ts";
import { mkdirSync } from "../util/index.ts";
import { ancestorsUpTo, canonicalPath } from "./collect.ts";
import { hasProtectedProjectResources } from "./trust.ts";

export type ProjectTrustDecision = boolean | null;

export interface ProjectTrustStoreEntry {
	path: string;
	decision: boolean;
}

export interface ProjectTrustUpdate {
	path: string;
	decision: ProjectTrustDecision;
}

/** Whether cwd has project resources that only load once the project is trusted. */
export function hasTrustRequiringProjectResources(cwd: string): boolean {
	return hasProtectedProjectResources(cwd);
}

export class ProjectTrustStore {
	private readonly trustPath: string;

	constructor(agentDir: string) {
		this.trustPath = agentPaths.trust(agentDir);
	}

	private locked<T>(fn: () => T): T {
		mkdirSync(dirname(this.trustPath), { recursive: true });
		const release = takeFileLockSync(this.trustPath);
		try {
			return fn();
		} finally {
			release();
		}
	}

	private read(): JsonObject {
		const read = readJsonObject(this.trustPath);
		if (!read.ok) throw new Error(`${this.trustPath}: ${read.reason}`);
		return read.data ?? {};
	}

	/** The closest saved decision for cwd or a parent; null when there is none. */
	get(cwd: string): ProjectTrustDecision {
		return this.getEntry(cwd)?.decision ?? null;
	}

	getEntry(cwd: string): ProjectTrustStoreEntry | null {
		const data = this.read();
		for (const dir of ancestorsUpTo(canonicalPath(cwd))) {
			const decision = data[dir];
			if (typeof decision === "boolean") return { path: dir, decision };
		}
		return null;
	}

	set(cwd: string, decision: ProjectTrustDecision): void {
		this.setMany([{ path: cwd, decision }]);
	}

	/** Saves each decision (null forgets it) in one locked write. */
	setMany(decisions: readonly ProjectTrustUpdate[]): void {
		this.locked(() => {
			const data = this.read();
			for (const { path, decision } of decisions) {
				const key = canonicalPath(path);
				if (decision === null) delete data[key];
				else data[key] = decision;
			}
			const sorted: JsonObject = {};
			for (const key of Object.keys(data).sort()) sorted[key] = data[key];
			writeFileAtomic(this.trustPath, `${JSON.stringify(sorted, null, 2)}\n`);
		});
	}
}
