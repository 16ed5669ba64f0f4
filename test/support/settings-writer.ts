/**
 * Child process for the settings and auth.json concurrency tests (run with `process.execPath`).
 *   settings-writer.ts write <agentDir> <cwd> <prefix> <count>
 *       sets global keys <prefix>0 … <prefix>{count-1} one by one through SettingsStore (what the binary uses)
 *   settings-writer.ts manager <agentDir> <cwd> <prefix> <count>
 *       the same through pi's SettingsManager API (extensions, SDK scripts: the synchronous lock path)
 *   settings-writer.ts auth <authPath> <prefix> <count>
 *       stores API keys for providers <prefix>0 … through AuthStorage
 *   settings-writer.ts hold <file>
 *       takes the file's write lock, prints "locked", then hangs inside the write until killed
 *   settings-writer.ts stall <file> <key> <ms>
 *       sets <key> to true in <file>; the first time inside the locked section it prints "locked" and blocks for
 *       <ms> (a stalled writer whose lock others may take over); prints "attempts <n>" when the write landed
 *   settings-writer.ts refresh <authPath> <provider> <ms>
 *       refreshes the provider's expired OAuth tokens through AuthStorage; the refresh holds the auth.json lock,
 *       prints "locked" and answers after <ms> (never when <ms> is "never"); prints "refreshes <n>" when done
 *   settings-writer.ts churn <settings|auth> <path> <bytes>
 *       rewrites the file over and over (one key of <bytes> characters, its value the round number); prints
 *       "round <n>" before each write, until killed
 */
import { writeSync } from "node:fs";
import { AuthStorage } from "../../src/ai/index.ts";
import { SettingsManager, SettingsStore, updateJsonFile } from "../../src/config/index.ts";

const [mode, ...rest] = process.argv.slice(2);

async function writeManager(agentDir: string, cwd: string, prefix: string, count: number): Promise<void> {
	const manager = SettingsManager.create(cwd, agentDir);
	// The typed setters each write one known key; the generic one underneath writes any key.
	const setGlobal = (manager as unknown as { setGlobal(key: string, value: unknown): void }).setGlobal.bind(manager);
	for (let i = 0; i < count; i++) {
		setGlobal(`${prefix}${i}`, i);
		await manager.flush();
		for (const { error } of manager.drainErrors()) process.stderr.write(`${error.message}\n`);
	}
}

async function refresh(authPath: string, provider: string, ms: string): Promise<void> {
	const auth = new AuthStorage(authPath);
	let refreshes = 0;
	auth.setOAuthHandler(provider, {
		getApiKey: (tokens) => tokens.access,
		refreshToken: async (tokens) => {
			refreshes++;
			writeSync(1, "locked\n");
			if (ms === "never") await new Promise(() => {});
			await Bun.sleep(Number(ms));
			return { ...tokens, access: `fresh-${refreshes}`, refresh: `next-${refreshes}`, expires: Date.now() + 3600_000 };
		},
	});
	await auth.refreshOAuthIfExpired(provider);
	process.stdout.write(`refreshes ${refreshes}\n`);
}

async function churn(kind: string, path: string, bytes: number): Promise<void> {
	const key = "k".repeat(bytes);
	const auth = kind === "auth" ? new AuthStorage(path) : undefined;
	for (let round = 1; ; round++) {
		writeSync(1, `round ${round}\n`);
		if (auth) await auth.set(key, { type: "api_key", key: String(round) });
		else
			await updateJsonFile(path, (data) => {
				data[key] = round;
			});
	}
}

if (mode === "write") {
	const [agentDir, cwd, prefix, count] = rest as [string, string, string, string];
	const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
	for (let i = 0; i < Number(count); i++) await store.set("global", `${prefix}${i}`, i);
	process.stdout.write("done\n");
} else if (mode === "manager") {
	const [agentDir, cwd, prefix, count] = rest as [string, string, string, string];
	await writeManager(agentDir, cwd, prefix, Number(count));
	process.stdout.write("done\n");
} else if (mode === "auth") {
	const [authPath, prefix, count] = rest as [string, string, string];
	const auth = new AuthStorage(authPath);
	for (let i = 0; i < Number(count); i++) await auth.set(`${prefix}${i}`, { type: "api_key", key: `key-${i}` });
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
} else if (mode === "refresh") {
	const [authPath, provider, ms] = rest as [string, string, string];
	await refresh(authPath, provider, ms);
} else if (mode === "churn") {
	const [kind, path, bytes] = rest as [string, string, string];
	await churn(kind, path, Number(bytes));
} else {
	process.stderr.write(`unknown mode ${mode}\n`);
	process.exit(2);
}
