import { join } from "node:path";
import { os } from "./builtins.ts";

/** The user's home directory: `$HOME` when set (tests point it at a temp dir), else the OS answer. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
	const home = env.HOME;
	return home && home.length > 0 ? home : os().homedir();
}

/** Expands a leading `~` or `~/` to the home directory; other paths are returned unchanged. */
export function expandHome(path: string, env: NodeJS.ProcessEnv = process.env): string {
	if (path === "~") return homeDir(env);
	if (path.startsWith("~/")) return join(homeDir(env), path.slice(2));
	return path;
}
