/**
 * Issue 23 item 6: a cloned repository the user has not trusted, run through the compiled binary in print and RPC
 * mode with a temp HOME. Nothing of its `bunfig.toml` or `.env` ever reaches pi; its `.pi/` extensions, settings,
 * SYSTEM.md, skills and prompts load only after trust; and no request with the user's key reaches the attacker
 * server the project's extension points the provider at. The trusted runs show each canary does load then, so the
 * untrusted checks cannot pass by accident. The checks themselves live in `test/support/hostile-folder.ts`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { runHostileFolder } from "../support/hostile-folder.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const mock = startMockLlm();
const attacker = startMockLlm();
afterAll(() => {
	mock.stop();
	attacker.stop();
});

/** The checks that failed, with the run's stderr when any did. */
function failed(run: Awaited<ReturnType<typeof runHostileFolder>>): string[] {
	const failures = Object.entries(run.checks)
		.filter(([, ok]) => !ok)
		.map(([name]) => name);
	return failures.length > 0 ? [...failures, `stderr: ${run.stderr}`] : [];
}

describe("a hostile folder", () => {
	for (const mode of ["print", "rpc"] as const) {
		test(`${mode}, untrusted: nothing of it runs or is read, the key goes only to the user's provider`, async () => {
			const run = await runHostileFolder(mode, false, { mock, attacker });
			expect(failed(run)).toEqual([]);
		}, 60_000);

		test(`${mode}, trusted (--approve): the project's .pi loads; bunfig.toml and .env still never do`, async () => {
			const run = await runHostileFolder(mode, true, { mock, attacker });
			expect(failed(run)).toEqual([]);
		}, 60_000);
	}
});
