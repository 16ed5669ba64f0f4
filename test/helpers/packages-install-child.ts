/** A separate process installing one package (argv: agentDir, cwd, source, env JSON), for the cross-process lock. */
import { SettingsStore } from "../../src/config/index.ts";
import { createPackageManager } from "../../src/packages/index.ts";

const [agentDir, cwd, source, env] = process.argv.slice(2) as [string, string, string, string];
const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
const manager = createPackageManager({ agentDir, cwd, store, env: JSON.parse(env) });
await manager.install(source, { scope: "user" });
