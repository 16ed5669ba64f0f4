/**
 * Hidden diagnostics for the conformance tests: with `PI_DEBUG_REGISTRATIONS=1` the CLI prints, once the
 * extensions are loaded, one JSON line per loaded extension to stderr and exits 0 before any session or model
 * call: `{"path":…,"tools":[…],"commands":[…],"flags":[…],"events":[…],"shortcuts":[…],"providers":[…]}`.
 * Names are each extension's own registrations (a flag another extension owns is still listed), in registration
 * order; events are the `pi.on` names with at least one handler.
 */
import type { ExtensionHost } from "../runtime/index.ts";

export const DEBUG_REGISTRATIONS_ENV = "PI_DEBUG_REGISTRATIONS";

export interface RegistrationReport {
	path: string;
	tools: string[];
	commands: string[];
	flags: string[];
	events: string[];
	shortcuts: string[];
	providers: string[];
}

export function debugRegistrationsRequested(env: NodeJS.ProcessEnv = process.env): boolean {
	const value = env[DEBUG_REGISTRATIONS_ENV];
	return value !== undefined && value !== "" && value !== "0";
}

export function registrationReports(host: Pick<ExtensionHost, "extensions">): RegistrationReport[] {
	return host.extensions.map(({ entry, handle }) => {
		const r = handle.registrations;
		return {
			path: entry.path,
			tools: [...r.tools.keys()],
			commands: [...r.commands.keys()],
			flags: [...r.flags.keys()],
			events: [...r.handlers].filter(([, list]) => list.length > 0).map(([name]) => name),
			shortcuts: [...r.shortcuts.keys()],
			providers: r.pendingProviders.map((p) => p.name),
		};
	});
}

/** The stderr text: one JSON line per extension. */
export function renderRegistrationReports(host: Pick<ExtensionHost, "extensions">): string {
	return registrationReports(host)
		.map((report) => `${JSON.stringify(report)}\n`)
		.join("");
}
