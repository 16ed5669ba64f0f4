import type { ProviderHeaders } from "../auth/provider-auth-types.ts";

/** `override` over `base`, header names compared case-insensitively. */
export function mergeHeaders(base?: ProviderHeaders, override?: ProviderHeaders): ProviderHeaders | undefined {
	if (!base && !override) return undefined;
	const merged: ProviderHeaders = { ...base };
	for (const [name, value] of Object.entries(override ?? {})) {
		for (const existing of Object.keys(merged))
			if (existing.toLowerCase() === name.toLowerCase()) delete merged[existing];
		merged[name] = value;
	}
	return merged;
}
