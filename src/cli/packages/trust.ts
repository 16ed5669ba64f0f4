/**
 * Project trust for a package command (pi 0.87.1's rules for `install`, `remove`, `list`, `config` and `update`):
 * `--approve`/`--no-approve` decide for this command; a folder with nothing trust protects is trusted; then the
 * saved decision in `<agentDir>/trust.json`; then settings `defaultProjectTrust` (`always`/`never`). Nothing asks
 * here (these commands do not start the extension host, and `ask` is "not trusted" until the user decides, e.g.
 * with `--approve` or `/trust`).
 */
import { SettingsStore } from "../../config/index.ts";
import { decideProjectTrust, hasProtectedProjectResources, TrustStore } from "../../resources/index.ts";

export interface CommandTrust {
	trusted: boolean;
	/** Warnings to show (an unreadable trust.json). */
	warnings: string[];
}

export function decideCommandTrust(options: { cwd: string; agentDir: string; approve?: boolean }): CommandTrust {
	const { cwd, agentDir, approve } = options;
	const protectedResources = approve === undefined && hasProtectedProjectResources(cwd);
	if (approve === undefined && !protectedResources) return { trusted: true, warnings: [] };
	const trustStore = new TrustStore(agentDir);
	const remembered = approve === undefined ? trustStore.get(cwd) : undefined;
	const global = new SettingsStore({ agentDir, cwd, projectTrusted: false }).getScope("global");
	const decision = decideProjectTrust({
		mode: "print",
		hasProtectedResources: true,
		...(approve !== undefined ? { approve } : {}),
		...(remembered !== undefined ? { remembered } : {}),
		...(global.defaultProjectTrust ? { defaultProjectTrust: global.defaultProjectTrust } : {}),
	});
	const problem = trustStore.getError();
	return { trusted: decision.trusted === true, warnings: problem ? [problem] : [] };
}
