/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { hostileFoldersArea } from "./hostile-folders.ts";
import { settingsArea } from "./settings.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [settingsArea, hostileFoldersArea];
