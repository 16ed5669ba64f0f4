/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { extensionsArea } from "./extensions.ts";
import { rpcInputArea } from "./rpc-input.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [extensionsArea, rpcInputArea];
