import { test } from "bun:test";
import { INTERACTIVE_SCENARIOS } from "/work/main/test/helpers/interactive-scenarios-list.ts";
import { examplesDir } from "/work/main/test/helpers/interactive-scenarios.ts";
import { startOurs, startPi } from "/work/main/test/helpers/pty-app.ts";
import { join } from "node:path";
const names = (process.env.ONLY ?? "").split(",");
for (const name of names) {
	test(name, async () => {
		const s = INTERACTIVE_SCENARIOS.find((x) => x.name === name)!;
		const dir = (examplesDir() as { dir: string }).dir;
		for (const kind of ["pi", "ours"] as const) {
			const opts = { ...(s.options ?? {}), extensions: [join(dir, s.extension)] } as never;
			const app = kind === "pi" ? ((await startPi(opts)) as never as Awaited<ReturnType<typeof startOurs>>) : await startOurs(opts);
			try {
				await (app as any).ready(); const content = await s.run(app as never);
				console.log(`--- ${kind}\n${content.join("\n")}`);
			} catch (e) {
				console.log(`--- ${kind} ERROR ${e}\n${(await app.screen()).join("\n")}`);
			} finally {
				await app.close();
			}
		}
	}, 120_000);
}
