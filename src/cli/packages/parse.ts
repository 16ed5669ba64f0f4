/**
 * Arguments of `pi install|remove|uninstall|update|list`, read as pi 0.87.1 reads them: `-h` wins; the first
 * unknown option, a missing option value, a second positional argument or a conflicting combination is one
 * error (with the usage line); `-a/--approve` and `-na/--no-approve` decide project trust for this command.
 * `update` targets: nothing or `self`/`pi`/`--self` → pi itself (plain `update` notes that packages are skipped);
 * `<source>` or `--extension <source>` → that package; `--extensions` → every package; `--all` (or `--self
 * --extensions`, or `self --extensions`) → packages then pi; `--models` → model catalogs.
 */
import type { PackageCommandName } from "./usage.ts";

export type UpdateTarget =
	| { type: "self" }
	| { type: "extensions"; source?: string }
	| { type: "all" }
	| { type: "models" };

export interface PackageCommandArgs {
	command: Exclude<PackageCommandName, "config">;
	source?: string;
	local: boolean;
	/** install: let the package's own scripts run. */
	trust: boolean;
	force: boolean;
	help: boolean;
	/** `--approve` → true, `--no-approve` → false. */
	approve?: boolean;
	update?: UpdateTarget;
	/** Plain `pi update`: say that packages were not updated. */
	extensionsSkippedNote: boolean;
	/** update: `--rollback` and `--version <x.y.z>` of the self-update. */
	rollback: boolean;
	version?: string;
	/** The first problem, as pi words it (printed with the usage line). */
	problem?: { kind: "option" | "value" | "argument" | "conflict"; text: string };
}

const COMMANDS: Record<string, PackageCommandArgs["command"]> = {
	install: "install",
	remove: "remove",
	uninstall: "remove",
	update: "update",
	list: "list",
};

export function isPackageCommand(word: string | undefined): boolean {
	return word !== undefined && (word in COMMANDS || word === "config");
}

interface Flags {
	self: boolean;
	extensions: boolean;
	models: boolean;
	all: boolean;
	extension?: string;
}

export function parsePackageCommand(argv: readonly string[]): PackageCommandArgs | undefined {
	const command = COMMANDS[argv[0] ?? ""];
	if (!command) return undefined;
	const args: PackageCommandArgs = {
		command,
		local: false,
		trust: false,
		force: false,
		help: false,
		extensionsSkippedNote: false,
		rollback: false,
	};
	const flags: Flags = { self: false, extensions: false, models: false, all: false };
	const problem = (kind: NonNullable<PackageCommandArgs["problem"]>["kind"], text: string) => {
		args.problem ??= { kind, text };
	};
	const update = command === "update";
	const installOrRemove = command === "install" || command === "remove";
	/** Switches that belong to some commands only: where they are allowed, and the name they set. */
	const switches: Record<string, [boolean, string]> = {
		"-l": [installOrRemove, "local"],
		"--local": [installOrRemove, "local"],
		"--trust": [command === "install", "trust"],
		"--self": [update, "self"],
		"--extensions": [update, "extensions"],
		"--models": [update, "models"],
		"--all": [update, "all"],
		"--force": [update, "force"],
		"--rollback": [update, "rollback"],
	};
	const on = new Set<string>();
	const rest = argv.slice(1);
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i] as string;
		const known = Object.hasOwn(switches, arg) ? switches[arg] : undefined;
		if (arg === "-h" || arg === "--help") args.help = true;
		else if (known) {
			if (known[0]) on.add(known[1]);
			else problem("option", arg);
		} else if (arg === "-a" || arg === "--approve") args.approve = true;
		else if (arg === "-na" || arg === "--no-approve") args.approve = false;
		else if (arg === "--extension" || arg === "--version") {
			if (!update) {
				problem("option", arg);
				continue;
			}
			const value = rest[i + 1];
			if (!value || value.startsWith("-")) {
				problem("value", arg);
				continue;
			}
			i++;
			if (arg === "--version") args.version = value;
			else if (flags.extension !== undefined) problem("conflict", "--extension can only be provided once");
			else flags.extension = value;
		} else if (arg.startsWith("-")) problem("option", arg);
		else if (args.source === undefined) args.source = arg;
		else problem("argument", arg);
	}
	args.local = on.has("local");
	args.trust = on.has("trust");
	args.force = on.has("force");
	args.rollback = on.has("rollback");
	flags.self = on.has("self");
	flags.extensions = on.has("extensions");
	flags.models = on.has("models");
	flags.all = on.has("all");
	if (update) decideUpdateTarget(args, flags, problem);
	return args;
}

function decideUpdateTarget(
	args: PackageCommandArgs,
	flags: Flags,
	problem: (kind: "conflict", text: string) => void,
): void {
	const { source } = args;
	if (flags.all && (flags.self || flags.extensions || flags.models || flags.extension))
		problem("conflict", "--all cannot be combined with --self, --extensions, --models, or --extension");
	if (flags.all && source) problem("conflict", "--all cannot be combined with a positional source");
	if (flags.models) {
		if (flags.self || flags.extensions || flags.all || flags.extension)
			problem("conflict", "--models cannot be combined with --self, --extensions, --all, or --extension");
		if (source) problem("conflict", "--models cannot be combined with a positional source");
		args.update = { type: "models" };
	} else if (flags.extension) {
		if (flags.self || flags.extensions || flags.all)
			problem("conflict", "--extension cannot be combined with --self, --extensions, or --all");
		if (source) problem("conflict", "--extension cannot be combined with a positional source");
		args.update = { type: "extensions", source: flags.extension };
	} else if (source) {
		if (source === "self" || source === "pi") args.update = flags.extensions ? { type: "all" } : { type: "self" };
		else {
			if (flags.extensions || flags.self || flags.all)
				problem("conflict", "positional update targets cannot be combined with --self, --extensions, or --all");
			args.update = { type: "extensions", source };
		}
	} else if (flags.all || (flags.self && flags.extensions)) args.update = { type: "all" };
	else if (flags.self) args.update = { type: "self" };
	else if (flags.extensions) args.update = { type: "extensions" };
	else {
		args.update = { type: "self" };
		args.extensionsSkippedNote = true;
	}
	const selfOnly = args.update.type === "self" || args.update.type === "all";
	if ((args.rollback || args.version !== undefined) && !selfOnly)
		problem("conflict", "--rollback and --version update pi itself; they cannot be combined with a package target");
	if (args.version !== undefined && !/^v?\d+\.\d+\.\d+/.test(args.version))
		problem("conflict", `--version needs a version (x.y.z), got "${args.version}"`);
}
