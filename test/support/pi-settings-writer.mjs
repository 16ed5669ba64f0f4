/**
 * The same writers as settings-writer.ts, through pi 0.87.1's own SettingsManager and AuthStorage (run under
 * Node 22): node pi-settings-writer.mjs <pi's node_modules> <mode> …
 *   write <agentDir> <cwd> <prefix> <count>   global keys <prefix>0 … one by one (pi's markModified + save)
 *   auth <authPath> <prefix> <count>          API keys for providers <prefix>0 … (pi's AuthStorage.modify)
 *   churn <settings|auth> <path> <bytes>      rewrites the file over and over, printing "round <n>" before each
 */
import { writeSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, mode, ...rest] = process.argv.slice(2);
const core = join(modules, "@earendil-works", "pi-coding-agent", "dist", "core");
const { SettingsManager } = await import(pathToFileURL(join(core, "settings-manager.js")).href);
const { AuthStorage } = await import(pathToFileURL(join(core, "auth-storage.js")).href);

/** pi's setters each write one known key; the two steps underneath them write any key. */
async function setGlobal(manager, key, value) {
	manager.globalSettings[key] = value;
	manager.markModified(key);
	manager.save();
	await manager.flush();
	for (const { error } of manager.drainErrors()) process.stderr.write(`${error.message}\n`);
}

if (mode === "write") {
	const [agentDir, cwd, prefix, count] = rest;
	const manager = SettingsManager.create(cwd, agentDir);
	for (let i = 0; i < Number(count); i++) await setGlobal(manager, `${prefix}${i}`, i);
	process.stdout.write("done\n");
} else if (mode === "auth") {
	const [authPath, prefix, count] = rest;
	const auth = AuthStorage.create(authPath);
	for (let i = 0; i < Number(count); i++) {
		try {
			await auth.modify(`${prefix}${i}`, () => ({ type: "api_key", key: `key-${i}` }));
		} catch (error) {
			process.stderr.write(`${error.message}\n`);
		}
	}
	process.stdout.write("done\n");
} else if (mode === "churn") {
	const [kind, path, bytes] = rest;
	const key = "k".repeat(Number(bytes));
	if (kind === "auth") {
		const auth = AuthStorage.create(path);
		for (let round = 1; ; round++) {
			writeSync(1, `round ${round}\n`);
			await auth.modify(key, () => ({ type: "api_key", key: String(round) }));
		}
	} else {
		const manager = SettingsManager.create(join(path, "..", "cwd"), join(path, ".."));
		for (let round = 1; ; round++) {
			writeSync(1, `round ${round}\n`);
			await setGlobal(manager, key, round);
		}
	}
} else {
	process.stderr.write(`unknown mode ${mode}\n`);
	process.exit(2);
}
