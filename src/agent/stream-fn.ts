/**
 * The stream function the loop and `Agent` use when a caller passes none. pi-agent-core has no provider catalogue
 * of its own and asks hosts to install one (`setDefaultStreamFn`); ours starts with the built-in `streamSimple`,
 * and a host may replace it.
 */
import { streamSimple } from "../ai/index.ts";
import type { StreamFn } from "./types.ts";

let installed: StreamFn | undefined;

export function setDefaultStreamFn(streamFn: StreamFn): void {
	installed = streamFn;
}

export function getDefaultStreamFn(): StreamFn {
	return installed ?? streamSimple;
}
