/**
 * Hostile folders (issue 23 item 6): the checks of `test/support/hostile-folder.ts` (bunfig.toml preload, .env,
 * project .pi resources before and after trust, the user's key and an attacker server) in print and RPC mode,
 * untrusted and trusted, on our binary and on pi 0.87.1 (under Node 22, through a one-line wrapper).
 */
import { removeTempDirs } from "../../../test/helpers/tmp.ts";
import { runHostileFolder } from "../../../test/support/hostile-folder.ts";
import { startMockLlm } from "../../../test/support/mock-llm/index.ts";
import { piExecutable } from "./settings.ts";
import type { Figure, ReliabilityArea } from "./types.ts";

export const hostileFoldersArea: ReliabilityArea = {
	name: "hostile-folders",
	async run(ctx) {
		const mock = startMockLlm();
		const attacker = startMockLlm();
		const figures: Figure[] = [];
		try {
			const piBin = ctx.pi ? piExecutable(ctx.pi) : undefined;
			for (const mode of ["print", "rpc"] as const) {
				for (const trusted of [false, true]) {
					ctx.log(`${mode}, ${trusted ? "trusted" : "untrusted"}`);
					const cell = async (bin?: string) => {
						const { checks } = await runHostileFolder(mode, trusted, { mock, attacker }, bin);
						const entries = Object.entries(checks);
						const failing = entries.filter(([, ok]) => !ok).map(([name]) => name);
						return { text: `${entries.length - failing.length} of ${entries.length}`, failing };
					};
					const mine = await cell(ctx.bin);
					const pis = piBin ? await cell(piBin) : undefined;
					const failing = [...mine.failing.map((f) => `ours: ${f}`), ...(pis?.failing ?? []).map((f) => `pi: ${f}`)];
					figures.push({
						figure: `hostile folder checks passed, ${mode} mode, ${trusted ? "trusted (--approve)" : "untrusted"}`,
						ours: mine.text,
						...(pis ? { pi: pis.text } : {}),
						note: failing.length > 0 ? `check failed: ${failing.join("; ")}` : "",
					});
				}
			}
		} finally {
			mock.stop();
			attacker.stop();
			removeTempDirs();
		}
		return figures;
	},
};
