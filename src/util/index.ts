export { errorMessage, firstLine, UserError } from "./errors.ts";
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "./fuzzy.ts";
export { isGlob, matchGlob } from "./glob.ts";
export { expandHome, homeDir } from "./home.ts";
export { type SchemaCheck, schemaCheck } from "./schema-check.ts";
export { flushStdio, readStdinIfPiped, writeStderr, writeStdout } from "./stdio.ts";
export { uuidv7 } from "./uuid.ts";
export { APP_NAME, PI_COMPAT_VERSION, VERSION } from "./version.ts";
