export { APP_NAME, PI_COMPAT_VERSION, VERSION } from "./version.ts";
export { errorMessage, firstLine, UserError } from "./errors.ts";
export { expandHome, homeDir } from "./home.ts";
export { matchGlob, isGlob } from "./glob.ts";
