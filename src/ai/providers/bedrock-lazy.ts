/**
 * `bedrock-converse-stream` loaded on its first request, so start-up never parses the Bedrock, SigV4 and AWS
 * credential code. `setBedrockProviderModule` replaces the implementation (pi-ai 0.87.1 has the same hook).
 */
import { lazyApi } from "../collection/lazy.ts";
import type { ProviderStreams } from "../collection/types.ts";

let override: ProviderStreams | undefined;

export function setBedrockProviderModule(module: ProviderStreams | undefined): void {
	override = module;
}

/** The imported implementation, once a request has loaded it. */
let imported: ProviderStreams | undefined;

async function load(): Promise<ProviderStreams> {
	if (override) return override;
	const m = await import("./bedrock.ts");
	imported = { stream: m.streamBedrock, streamSimple: m.streamSimpleBedrock } as ProviderStreams;
	return imported;
}

/** The Bedrock API's stream pair (pi's `bedrockConverseStreamApi()`). */
export function bedrockConverseStreamApi(): ProviderStreams {
	return lazyApi(load, undefined, () => (override ? undefined : imported));
}
