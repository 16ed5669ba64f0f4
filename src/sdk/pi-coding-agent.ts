/** `@mariozechner/pi-coding-agent` / `@earendil-works/pi-coding-agent`: what extensions and SDK users import. */
export { CONFIG_DIR_NAME, getAgentDir } from "../config/index.ts";
export { createEventBus, type EventBus } from "../extensions/index.ts";
export { PI_COMPAT_VERSION, VERSION } from "../util/index.ts";
