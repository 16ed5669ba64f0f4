/**
 * The mock LLM in its own process (`mock-llm/serve.ts`), for tests whose other side runs synchronously (pi under
 * Node through `spawnSync`) and so cannot be answered by a server in the test's own process.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export async function startMockProcess(
	stepsDir: string,
	replies: string[],
): Promise<{ url: string; stop: () => void }> {
	const steps = join(stepsDir, "mock-steps.json");
	writeFileSync(steps, JSON.stringify(replies.map((text) => ({ kind: "reply", text }))));
	const proc = Bun.spawn([process.execPath, join(import.meta.dir, "mock-llm/serve.ts"), steps], {
		stdin: "pipe",
		stdout: "pipe",
		stderr: "inherit",
	});
	const reader = proc.stdout.getReader();
	let text = "";
	while (!text.includes("\n")) {
		const { value, done } = await reader.read();
		if (done) break;
		text += new TextDecoder().decode(value);
	}
	reader.releaseLock();
	return { url: text.trim().split("\n")[0] as string, stop: () => proc.kill() };
}
