/**
 * The package commands (pi 0.87.1's `pi install`, `remove`/`uninstall`, `list`, `update`, `config`), run before
 * the usual argument parsing. Returns the exit code: 0, or 1 after a one-line error (with the usage line for a
 * command-line mistake, as pi prints it).
 */

import { projectPaths, readJsonObject } from "../../config/index.ts";
import type { PackageManager, SettingsPackageScope } from "../../packages/index.ts";
import { TrustStore } from "../../resources/index.ts";
import { runConfigCommand } from "./config.ts";
import type { PackageCommandDeps } from "./deps.ts";
import { listPackages, renderPackageList } from "./list.ts";
import { type PackageCommandArgs, parsePackageCommand } from "./parse.ts";
import { errorLine, openManager } from "./progress.ts";
import { decideCommandTrust } from "./trust.ts";
import { updatePackages } from "./update.ts";
import { helpOf, usageOf } from "./usage.ts";

export { defaultPackageDeps, type PackageCommandDeps } from "./deps.ts";
export { isPackageCommand } from "./parse.ts";

const NOT_TRUSTED = "Project is not trusted. Use --approve to modify local package config.";

export async function runPackageCommand(argv: readonly string[], deps: PackageCommandDeps): Promise<number> {
	if (argv[0] === "config") return runConfigCommand(argv.slice(1), deps);
	const args = parsePackageCommand(argv);
	if (!args) throw new Error(`not a package command: ${argv[0]}`);
	if (args.help) {
		deps.out(helpOf(args.command).trimEnd());
		return 0;
	}
	const usageError = checkArgs(args);
	if (usageError) {
		deps.err(usageError[0]);
		deps.err(usageError[1]);
		return 1;
	}
	if (args.command === "update" && args.update?.type === "models") {
		deps.err("Error: pi update --models: this pi has no downloadable model catalogs to refresh");
		return 1;
	}
	if (args.command === "update" && args.update?.type === "self") {
		if (args.extensionsSkippedNote)
			deps.out("Extensions are skipped. Run pi update --extensions to update extensions.");
		return deps.selfUpdate({ force: args.force, rollback: args.rollback, ...versionOf(args) });
	}
	const trusted =
		args.command === "update" ? savedTrust(deps, args.approve) : commandTrust(deps, args.approve ?? undefined);
	if (!trusted && args.local) {
		deps.err(NOT_TRUSTED);
		return 1;
	}
	try {
		const { manager } = await openManager(deps, trusted);
		return await runWithManager(args, manager, deps, trusted);
	} catch (error) {
		deps.err(errorLine(error));
		return 1;
	}
}

const versionOf = (args: PackageCommandArgs) => (args.version ? { version: args.version.replace(/^v/, "") } : {});

function checkArgs(args: PackageCommandArgs): [string, string] | undefined {
	const usage = usageOf(args.command);
	const { problem } = args;
	if (problem?.kind === "option")
		return [`Unknown option ${problem.text} for "${args.command}".`, `Use "pi --help" or "${usage}".`];
	if (problem?.kind === "value") return [`Missing value for ${problem.text}.`, `Usage: ${usage}`];
	if (problem?.kind === "argument") return [`Unexpected argument ${problem.text}.`, `Usage: ${usage}`];
	if (problem?.kind === "conflict") return [problem.text, `Usage: ${usage}`];
	if ((args.command === "install" || args.command === "remove") && !args.source)
		return [`Missing ${args.command} source.`, `Usage: ${usage}`];
	return undefined;
}

function commandTrust(deps: PackageCommandDeps, approve: boolean | undefined): boolean {
	const trust = decideCommandTrust({
		cwd: deps.cwd,
		agentDir: deps.agentDir,
		...(approve !== undefined ? { approve } : {}),
	});
	for (const line of trust.warnings) deps.err(`Warning: ${line}`);
	return trust.trusted;
}

/** `pi update` uses only a saved decision (or the flag), as pi does: it never asks and never guesses. */
function savedTrust(deps: PackageCommandDeps, approve: boolean | undefined): boolean {
	return approve ?? new TrustStore(deps.agentDir).get(deps.cwd) === true;
}

/** How many packages an untrusted project's settings name (read without trusting anything in them). */
function untrustedProjectPackages(cwd: string): number {
	const read = readJsonObject(projectPaths.settings(cwd));
	return read.ok && Array.isArray(read.data?.packages) ? read.data.packages.length : 0;
}

async function runWithManager(
	args: PackageCommandArgs,
	manager: PackageManager,
	deps: PackageCommandDeps,
	trusted: boolean,
) {
	const scope: SettingsPackageScope = args.local ? "project" : "user";
	const source = args.source as string;
	switch (args.command) {
		case "install": {
			// Blocked install scripts come as a warning line from the manager (with the command that trusts them).
			await manager.install(source, { scope, ...(args.trust ? { trust: true } : {}) });
			deps.out(`Installed ${source}`);
			return 0;
		}
		case "remove": {
			if (!(await manager.remove(source, { scope }))) {
				deps.err(`No matching package found for ${source}`);
				return 1;
			}
			deps.out(`Removed ${source}`);
			return 0;
		}
		case "list": {
			const listed = listPackages({
				configured: manager.configured(),
				records: (s) => manager.records(s),
				dirs: { agentDir: deps.agentDir, cwd: deps.cwd },
				provides: deps.provides,
			});
			for (const line of renderPackageList(listed)) deps.out(line);
			const hidden = trusted ? 0 : untrustedProjectPackages(deps.cwd);
			if (hidden > 0)
				deps.err(
					`${hidden} project package${hidden === 1 ? " is" : "s are"} not listed: the project is not trusted (pi list --approve shows them)`,
				);
			return 0;
		}
		case "update": {
			const target = args.update ?? { type: "self" };
			if (target.type === "extensions" || target.type === "all")
				await updatePackages(manager, target.type === "extensions" ? target.source : undefined, deps.out);
			if (target.type === "all")
				return deps.selfUpdate({ force: args.force, rollback: args.rollback, ...versionOf(args) });
			return 0;
		}
	}
}
