/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { sessions } from "./sessions.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [sessions];
