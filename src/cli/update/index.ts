/**
 * `pi update`: pi 0.87.1's targets (see packages/parse.ts). pi itself (`pi update`, `self`, `pi`, `--self`, and
 * after the packages with `--all`) is updated from its release site (see self-update.ts; `--rollback` and
 * `--version <x.y.z>` are ours); package targets (`<source>`, `--extension <source>`, `--extensions`) go to the
 * package manager.
 */
import { getAgentDir } from "../../config/index.ts";
import { buildInfo, UserError, VERSION, writeStderr } from "../../util/index.ts";
import { defaultPackageDeps, type PackageCommandDeps, runPackageCommand } from "../packages/index.ts";
import { releaseBase } from "./release-site.ts";
import { rollback, type SelfUpdateContext, selfUpdate } from "./self-update.ts";

export interface UpdateDeps {
	binary?: string;
	env?: NodeJS.ProcessEnv;
	fetch?: (url: string) => Promise<Response>;
	/** The system pi runs on (process.platform by default; a Windows build's target says win32). */
	platform?: NodeJS.Platform;
	say(line: string): void;
	/** Error lines (stderr by default). */
	warn?(line: string): void;
	/** Package-command seams (tests give a fake manager). */
	packages?: Partial<PackageCommandDeps>;
}

export interface SelfUpdateOptions {
	force: boolean;
	rollback: boolean;
	version?: string;
}

/** The release target this binary was built for (`linux-x64`, …); a run from the sources has none. */
function ownTarget(): string {
	const target = buildInfo().target;
	if (!target.startsWith("bun-")) {
		throw new UserError(
			"pi update: this pi runs from its sources (bun src/main.ts), not an installed binary; use git pull",
		);
	}
	return target.slice("bun-".length);
}

/** The self-update the package commands call for pi's own targets; returns the exit code. */
export function selfUpdateRunner(deps: UpdateDeps): (options: SelfUpdateOptions) => Promise<number> {
	return async (options) => {
		const target = ownTarget();
		const ctx: SelfUpdateContext = {
			binary: deps.binary ?? process.execPath,
			version: VERSION,
			target,
			platform: deps.platform ?? (target.startsWith("windows-") ? "win32" : process.platform),
			base: releaseBase(deps.env),
			fetch: deps.fetch ?? ((url) => fetch(url, { redirect: "follow" })),
			say: deps.say,
		};
		if (options.rollback) await rollback(ctx);
		else await selfUpdate(ctx, { force: options.force, ...(options.version ? { version: options.version } : {}) });
		return 0;
	};
}

/** `pi update …` (the arguments after `update`). */
export function runUpdate(argv: readonly string[], deps: UpdateDeps): Promise<number> {
	const base = defaultPackageDeps({ cwd: process.cwd(), agentDir: getAgentDir(), selfUpdate: selfUpdateRunner(deps) });
	return runPackageCommand(["update", ...argv], {
		...base,
		out: deps.say,
		err: deps.warn ?? ((line) => writeStderr(`${line}\n`)),
		...deps.packages,
	});
}
