/**
 * The usage lines and `-h` pages of the package commands. The usage lines are pi 0.87.1's (plus our `--trust` on
 * `install` and `--rollback`/`--version` on `update`); the pages are ours.
 */

export type PackageCommandName = "install" | "remove" | "update" | "list" | "config";

const APPROVE = "[--approve|--no-approve]";

export function usageOf(command: PackageCommandName): string {
	switch (command) {
		case "install":
			return `pi install <source> [-l] [--trust] ${APPROVE}`;
		case "remove":
			return `pi remove <source> [-l] ${APPROVE}`;
		case "update":
			return `pi update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] ${APPROVE} [--force]`;
		case "list":
			return `pi list ${APPROVE}`;
		case "config":
			return `pi config [-l] ${APPROVE}`;
	}
}

const TRUST_OPTIONS = `  -a, --approve     Trust the project's local files for this command
  -na, --no-approve Ignore the project's local files for this command`;

export function helpOf(command: PackageCommandName): string {
	switch (command) {
		case "install":
			return `Usage:
  ${usageOf("install")}

Installs a pi package and adds it to settings (a local path is only added).

Options:
  -l, --local       Install for this project (.pi/settings.json, .pi/npm, .pi/git)
  --trust           Let this package's own install scripts run (adds its name to trustedPackageScripts)
${TRUST_OPTIONS}

Examples:
  pi install npm:@foo/bar
  pi install npm:pi-mermaid@1.2.0
  pi install git:github.com/user/repo@v1
  pi install git:git@github.com:user/repo
  pi install https://github.com/user/repo
  pi install ssh://git@github.com/user/repo
  pi install ./local/path
`;
		case "remove":
			return `Usage:
  ${usageOf("remove")}

Removes a package from settings and deletes its installed files.
Alias: pi uninstall <source> [-l]

Options:
  -l, --local       Remove it from the project's settings (.pi/settings.json)
${TRUST_OPTIONS}

Examples:
  pi remove npm:@foo/bar
  pi uninstall git:github.com/user/repo
`;
		case "update":
			return `Usage:
  ${usageOf("update")}

Updates pi itself or installed packages. Package updates show what changes (old → new) before they apply;
packages pinned to a version or a git ref stay where they are.

Options:
  --self                  Update pi only (the default without a target)
  --extensions            Update installed packages only
  --all                   Update installed packages, then pi
  --extension <source>    Update one package only
  --force                 Reinstall pi even when it is the latest version
  --rollback              Go back to the pi binary replaced by the last update
  --version <x.y.z>       Install that release of pi
${TRUST_OPTIONS.replace(/command/g, "command (saved trust is used otherwise)")}

Short forms:
  pi update                Update pi only
  pi update --all          Update pi and every package
  pi update <source>       Update one package
  pi update pi             Update pi only (self works too)
`;
		case "list":
			return `Usage:
  ${usageOf("list")}

Lists the packages in user and project settings: source, installed version or commit, where it is installed,
and what it provides (extensions, skills, prompt templates, themes).

Options:
${TRUST_OPTIONS}
`;
		case "config":
			return `Usage:
  ${usageOf("config")}
  pi config list [-l] [--json]
  pi config enable|disable <source> <type> <resource> [-l]

Without a subcommand, opens a screen listing each configured package's resources by type; Space or Enter turns
one on or off (written to the package's settings entry as +path / -path filters), Tab switches between user
settings (~/.pi/agent/settings.json) and project settings (.pi/settings.json), Escape closes.

  list      Prints the same (one line per resource, [x] enabled); --json prints it as JSON
  enable    Turns one resource on; <type> is extensions, skills, prompts or themes (singular works too) and
  disable   <resource> its path inside the package (as list shows it) or its name

Options:
  -l, --local       Start in (list, enable, disable: use) the project's settings
${TRUST_OPTIONS}
`;
	}
}
