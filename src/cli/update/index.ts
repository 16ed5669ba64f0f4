/**
 * `pi update [self|pi] [--self] [--force] [--all] [--rollback] [--version <x.y.z>]`: updates this pi binary from
 * its release site (see self-update.ts). Package updates (`pi update <source>`, `--extensions`) come with the
 * package manager; `--all` updates pi and says so.
 */
import { buildInfo, UserError, VERSION } from "../../util/index.ts";
import { releaseBase } from "./release-site.ts";
import { rollback, type SelfUpdateContext, selfUpdate } from "./self-update.ts";

export interface UpdateDeps {
	binary?: string;
	env?: NodeJS.ProcessEnv;
	fetch?: (url: string) => Promise<Response>;
	say(line: string): void;
}

interface UpdateArgs {
	force: boolean;
	all: boolean;
	rollback: boolean;
	version?: string;
}

function parseUpdateArgs(argv: readonly string[]): UpdateArgs {
	const args: UpdateArgs = { force: false, all: false, rollback: false };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (arg === "--self" || ((arg === "self" || arg === "pi") && i === 0)) continue;
		if (arg === "--force") args.force = true;
		else if (arg === "--all") args.all = true;
		else if (arg === "--rollback") args.rollback = true;
		else if (arg === "--version") {
			const value = argv[++i];
			if (!value || !/^v?\d+\.\d+\.\d+/.test(value))
				throw new UserError("pi update: --version needs a version (x.y.z)");
			args.version = value.replace(/^v/, "");
		} else if (arg === "--extensions" || arg === "--extension" || arg === "--models" || !arg.startsWith("-")) {
			throw new UserError(
				`pi update: updating packages (${arg}) comes with the package manager, which this pi does not have yet`,
			);
		} else throw new UserError(`pi update: unknown option ${arg}`);
	}
	return args;
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

export async function runUpdate(argv: readonly string[], deps: UpdateDeps): Promise<number> {
	const args = parseUpdateArgs(argv);
	const ctx: SelfUpdateContext = {
		binary: deps.binary ?? process.execPath,
		version: VERSION,
		target: ownTarget(),
		base: releaseBase(deps.env),
		fetch: deps.fetch ?? ((url) => fetch(url, { redirect: "follow" })),
		say: deps.say,
	};
	if (args.rollback) {
		await rollback(ctx);
		return 0;
	}
	await selfUpdate(ctx, { force: args.force, ...(args.version ? { version: args.version } : {}) });
	if (args.all) deps.say("no packages to update (the package manager is not in this pi yet)");
	return 0;
}
