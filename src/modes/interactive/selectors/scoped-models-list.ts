/**
 * The state of the `/scoped-models` selector as plain data: `null` means every model is enabled (no scope), a list
 * is the enabled `provider/id`s in cycling order. Enabled models are listed first in that order, then the rest in
 * the available order; a list that covers every available model collapses back to `null`.
 */

export type EnabledIds = readonly string[] | null;

export const isEnabled = (enabled: EnabledIds, id: string): boolean => enabled === null || enabled.includes(id);

function collapse(result: string[], allIds: readonly string[]): EnabledIds {
	return result.length === allIds.length && result.every((id) => allIds.includes(id)) ? null : result;
}

export function toggleId(enabled: EnabledIds, allIds: readonly string[], id: string): EnabledIds {
	if (enabled === null) return allIds.filter((other) => other !== id);
	if (enabled.includes(id)) return enabled.filter((other) => other !== id);
	return collapse([...enabled, id], allIds);
}

/** Enables `targets` (default: every model), appended in the order given. */
export function enableIds(enabled: EnabledIds, allIds: readonly string[], targets?: readonly string[]): EnabledIds {
	if (enabled === null) return null;
	const result = [...enabled];
	for (const id of targets ?? allIds) if (!result.includes(id)) result.push(id);
	return collapse(result, allIds);
}

/** Disables `targets` (default: every model). */
export function clearIds(enabled: EnabledIds, allIds: readonly string[], targets?: readonly string[]): EnabledIds {
	if (enabled === null) return targets ? allIds.filter((id) => !targets.includes(id)) : [];
	const drop = new Set(targets ?? enabled);
	return enabled.filter((id) => !drop.has(id));
}

/** Moves an enabled id one place up (-1) or down (+1) in the cycling order; unchanged at either end. */
export function moveId(enabled: EnabledIds, id: string, delta: -1 | 1): EnabledIds {
	if (enabled === null) return null;
	const from = enabled.indexOf(id);
	const to = from + delta;
	if (from < 0 || to < 0 || to >= enabled.length) return enabled;
	const result = [...enabled];
	[result[from], result[to]] = [result[to] as string, result[from] as string];
	return result;
}

/** Enabled ids first (in their order, unavailable ones included), then the others in available order. */
export function listedIds(enabled: EnabledIds, allIds: readonly string[]): string[] {
	if (enabled === null) return [...allIds];
	const set = new Set(enabled);
	return [...enabled, ...allIds.filter((id) => !set.has(id))];
}

/** The footer's count: `all enabled`, or `N/M enabled` with unavailable ones noted. */
export function enabledCountText(enabled: EnabledIds, allIds: readonly string[]): string {
	if (enabled === null) return "all enabled";
	const available = new Set(allIds);
	const count = enabled.filter((id) => available.has(id)).length;
	const missing = enabled.length - count;
	return `${count}/${allIds.length} enabled${missing > 0 ? ` · ${missing} unavailable` : ""}`;
}
