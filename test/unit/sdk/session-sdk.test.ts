/** Where our SDK session differs from pi's on purpose, and says so. */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createAgentSession, SessionManager } from "../../../src/sdk/pi-coding-agent.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

describe("createAgentSession", () => {
	test("without any usable model it fails at once with pi's reason (pi returns a session whose prompts fail)", async () => {
		const root = makeTempDir("pi-sdk-nomodel-");
		const agentDir = join(root, "agent");
		mkdirSync(agentDir, { recursive: true });
		const saved = { ...process.env };
		for (const key of Object.keys(process.env)) if (/API_KEY|_TOKEN$/.test(key)) delete process.env[key];
		try {
			await expect(
				createAgentSession({ cwd: root, agentDir, sessionManager: SessionManager.inMemory(root) }),
			).rejects.toThrow(
				/^No models available\. Use \/login to log into a provider via OAuth or API key\. See:\n {2}.*providers\.md\n {2}.*models\.md$/,
			);
		} finally {
			Object.assign(process.env, saved);
		}
	});
});
