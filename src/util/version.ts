/**
 * Version facts. Kept free of other imports so `pi --version` can answer without loading the app.
 */
import pkg from "../../package.json" with { type: "json" };

/** This implementation's own version (package.json). */
export const VERSION: string = pkg.version;

/** The pi release whose extension API, session format and RPC protocol we implement. */
export const PI_COMPAT_VERSION: string = pkg.piCompat;

/** The executable's name, used in help and error text. */
export const APP_NAME = "pi";
