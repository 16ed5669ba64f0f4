/** Settings keys that only the agent-directory (global) file may set; project values are ignored. */
export const GLOBAL_ONLY_KEYS: ReadonlySet<string> = new Set(["defaultProjectTrust", "httpProxy", "cacheWarming"]);
