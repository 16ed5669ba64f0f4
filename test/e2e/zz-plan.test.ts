import { test } from "bun:test";
import { join } from "node:path";
import { examplesDir, reply, submit } from "/work/main/test/helpers/interactive-scenarios.ts";
import { startOurs } from "/work/main/test/helpers/pty-app.ts";
test("plan", async () => {
	const dir = (examplesDir() as { dir: string }).dir;
	const app = await startOurs({ extensions: [join(dir, "plan-mode/index.ts")], mock: [reply("Plan:\n1. Write the failing test\n2. Fix the parser bug\n"), reply("Noted the plan."), reply("Wrote the failing test. [DONE:1]")] } as never);
	await (app as any).ready();
	await submit(app, "/plan");
	await app.waitFor("Plan mode enabled");
	await submit(app, "fix the parser");
	for (let i = 0; i < 12; i++) {
		await Bun.sleep(250);
		const s = await app.screen();
		console.log(`--- t${i} requests=${app.mock.requests.length}\n` + s.filter((l) => l.trim()).slice(-14).join("\n"));
	}
	await app.close();
}, 60_000);
