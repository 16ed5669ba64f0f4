/**
 * The temp HOME each side of a pseudo-terminal bench runs in: models.json pointing at the bench's mock LLM, stand-in
 * fd/rg (so neither app tries to download them), a temp folder, and an environment that keeps everything on the
 * machine.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function benchHome(root: string, name: string, mockUrl: string): { env: Record<string, string>; agent: string } {
	const home = join(root, `home-${name}`);
	const agent = join(home, ".pi", "agent");
	mkdirSync(join(agent, "bin"), { recursive: true });
	mkdirSync(join(home, "tmp"), { recursive: true });
	for (const tool of ["fd", "rg"]) writeFileSync(join(agent, "bin", tool), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
	writeFileSync(
		join(agent, "models.json"),
		JSON.stringify({
			providers: {
				mock: {
					baseUrl: mockUrl,
					api: "anthropic-messages",
					apiKey: "mock-key",
					models: [{ id: "mock-1", contextWindow: 200_000, maxTokens: 16_384 }],
				},
			},
		}),
	);
	const env = {
		HOME: home,
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		TERM: "xterm-256color",
		LANG: process.env.LANG ?? "C.UTF-8",
		TMPDIR: join(home, "tmp"),
		PI_CODING_AGENT_DIR: agent,
		PI_SKIP_VERSION_CHECK: "1",
		HTTP_PROXY: "http://127.0.0.1:9",
		HTTPS_PROXY: "http://127.0.0.1:9",
		NO_PROXY: "127.0.0.1,localhost",
	};
	return { env, agent };
}
