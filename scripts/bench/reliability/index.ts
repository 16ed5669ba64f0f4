/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { extensionsArea } from "./extensions.ts";
import { hostileFoldersArea } from "./hostile-folders.ts";
import { providersArea } from "./providers.ts";
import { rpcInputArea } from "./rpc-input.ts";
import { sessions } from "./sessions.ts";
import { settingsArea } from "./settings.ts";
import { soakArea } from "./soak.ts";
import { toolsArea } from "./tools.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [
	sessions,
	settingsArea,
	toolsArea,
	providersArea,
	extensionsArea,
	hostileFoldersArea,
	rpcInputArea,
	soakArea,
];
