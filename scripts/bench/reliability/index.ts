/** Every area of the reliability bench, in report order. Add an area here when its file lands. */
import { extensionsArea } from "./extensions.ts";
import { providersArea } from "./providers.ts";
import { rpcInputArea } from "./rpc-input.ts";
import { sessions } from "./sessions.ts";
import { soakArea } from "./soak.ts";
import { toolsArea } from "./tools.ts";
import type { ReliabilityArea } from "./types.ts";

export const AREAS: ReliabilityArea[] = [sessions, toolsArea, providersArea, extensionsArea, rpcInputArea, soakArea];
