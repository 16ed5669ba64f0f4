/** `pi --help`: generated from the option table, plus the flags loaded extensions registered. */
import { APP_NAME, PI_COMPAT_VERSION, VERSION } from "../util/index.ts";
import { FLAGS, type FlagSpec } from "./flags.ts";

export interface ExtensionFlagHelp {
	name: string;
	type: "boolean" | "string";
	description?: string;
	extensionPath: string;
}

export function renderHelp(extensionFlags: ExtensionFlagHelp[] = []): string {
	const lines: string[] = [
		`${APP_NAME} ${VERSION}: a coding agent in one executable (pi ${PI_COMPAT_VERSION} compatible)`,
		"",
		"Usage:",
		`  ${APP_NAME} [options] [--] [@files...] [messages...]`,
		"",
	];
	const groups = new Map<string, FlagSpec[]>();
	for (const flag of FLAGS) groups.set(flag.group, [...(groups.get(flag.group) ?? []), flag]);
	for (const [group, flags] of groups) {
		lines.push(`${group}:`);
		for (const flag of flags) {
			const names = `${flag.alias ? `-${flag.alias}, ` : ""}--${flag.name}${flag.arg ? ` ${flag.arg}` : ""}`;
			lines.push(`  ${names.padEnd(34)} ${flag.help}`);
		}
		lines.push("");
	}
	if (extensionFlags.length > 0) {
		lines.push("Extension CLI Flags:");
		for (const flag of extensionFlags) {
			const names = `--${flag.name}${flag.type === "string" ? " <value>" : ""}`;
			lines.push(`  ${names.padEnd(34)} ${flag.description ?? ""}`.trimEnd());
		}
		lines.push("");
	}
	lines.push(
		"Environment:",
		"  PI_CODING_AGENT_DIR                agent config dir (default ~/.pi/agent)",
		"",
		"Examples:",
		`  ${APP_NAME} -p "summarise this repository"`,
		`  ${APP_NAME} -e ./my-extension.ts`,
		"",
	);
	return lines.join("\n");
}
