/**
 * What Space does to a row of `pi config` (and what `enable`/`disable` write): a package's own resource flips
 * between `+path` and `-path` in its entry; a resource of a user package seen from the project cycles the project's
 * override (see project-view.ts).
 */
import type { SettingsStore } from "../../config/index.ts";
import type { ConfigInput, ConfigPackage, ConfigResource, OverrideState } from "./model.ts";
import { identityOrUndefined, nextOverride, overrideSource } from "./project-view.ts";
import { setProjectOverride, setResourceEnabled } from "./write.ts";

export interface ToggleContext {
	store: SettingsStore;
	input: ConfigInput;
	/** `<cwd>/.pi`, the folder project settings' relative sources resolve from. */
	projectBaseDir: string;
}

/** Sets a resource on or off (`enabled`), or, without it, flips / cycles it as Space does. */
export async function toggleResource(
	ctx: ToggleContext,
	pkg: ConfigPackage,
	resource: ConfigResource,
	enabled?: boolean,
): Promise<void> {
	const change = { source: pkg.source, type: resource.type, pattern: resource.pattern };
	if (!pkg.inherited) {
		await setResourceEnabled(ctx.store, pkg.scope, { ...change, enabled: enabled ?? !resource.enabled });
		return;
	}
	const user = ctx.input.configured.find((c) => c.scope === "user" && c.source === pkg.source);
	if (!user) throw new Error(`${pkg.source} is no longer in the user settings`);
	const inheritedEnabled = resource.inheritedEnabled ?? resource.enabled;
	const state: OverrideState =
		enabled === undefined
			? nextOverride(resource.override ?? "inherit", inheritedEnabled)
			: enabled === inheritedEnabled
				? "inherit"
				: enabled
					? "load"
					: "unload";
	const id = identityOrUndefined(user);
	await setProjectOverride(ctx.store, {
		matches: (source) => source === user.source || identityOrUndefined({ source, baseDir: ctx.projectBaseDir }) === id,
		type: change.type,
		pattern: change.pattern,
		source: overrideSource(user, ctx.projectBaseDir),
		state,
	});
}
