/** The session-settings target (model, thinking level) of the current runtime; undefined while there is no session. */
import type { SettingsTarget } from "../../../runtime/index.ts";
import type { CommandContext } from "./types.ts";

export function settingsTarget(c: CommandContext): SettingsTarget | undefined {
	const runtime = c.host.current;
	if (!runtime.session) return undefined;
	return {
		session: runtime.session,
		manager: runtime.manager,
		registry: c.registry,
		runner: runtime.bridge.runner,
		context: () => runtime.bridge.scope.context(),
	};
}
