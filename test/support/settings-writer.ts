/**
 * Child process for the settings concurrency tests (run with `process.execPath`).
 *   settings-writer.ts write <agentDir> <cwd> <prefix> <count>
 *       sets global keys <prefix>0 … <prefix>{count-1} one by one through SettingsStore
 *   settings-writer.ts hold <file>
 *       takes the file's write lock, prints "locked", then hangs inside the write until killed
 *   settings-writer.ts stall <file> <key> <ms>
 *       sets <key> to true in <file>; the first time inside the locked section it prints "locked" and blocks for
 *       <ms> (a stalled writer whose lock others may take over); prints "attempts <n>" when the write landed
 */
import { writeSync } from "node:fs";
import { SettingsStore, updateJsonFile } from "../../src/config/index.ts";

const [mode, ...rest] = process.argv.slice(2);

if (mode === "write") {
	const [agentDir, cwd, prefix, count] = rest as [string, string, string, string];
	const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
	for (let i = 0; i < Number(count); i++) await store.set("global", `${prefix}${i}`, i);
	process.stdout.write("done\n");
} else if (mode === "hold") {
	const [file] = rest as [string];
	await updateJsonFile(file, () => {
		writeSync(1, "locked\n");
		// Block this process inside the locked section until the test kills it.
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
	});
} else if (mode === "stall") {
	const [file, key, ms] = rest as [string, string, string];
	let attempts = 0;
	await updateJsonFile(file, (data) => {
		attempts++;
		if (attempts === 1) {
			writeSync(1, "locked\n");
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
		}
		data[key] = true;
	});
	process.stdout.write(`attempts ${attempts}\n`);
} else {
	process.stderr.write(`unknown mode ${mode}\n`);
	process.exit(2);
}
