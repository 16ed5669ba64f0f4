/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { providersArea } from "./providers.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [providersArea];
