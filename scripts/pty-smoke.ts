// Temporary manual driver: bun scripts/pty-smoke.ts [keys...]
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Terminal } from "@xterm/headless";
import { startMockLlm } from "../test/support/mock-llm/index.ts";

const server = startMockLlm();
server.push({ kind: "reply", text: process.env.REPLY ?? "Hello **there**! Here is a list:\n\n- one\n- two", chunkSize: 4, frameDelayMs: Number(process.env.FRAME_DELAY ?? 0) } as never, { kind: "reply", text: "second reply" } as never);
const home = mkdtempSync(join(tmpdir(), "pi-smoke-"));
mkdirSync(join(home, ".pi/agent"), { recursive: true });
mkdirSync(join(home, "work"));
const model = { id: "mock-text", reasoning: process.env.REASONING === "1", input: ["text"], contextWindow: 200000, maxTokens: 4000 };
writeFileSync(join(home, ".pi/agent/models.json"), JSON.stringify({ providers: { mock: { baseUrl: server.url, api: "anthropic-messages", apiKey: "k", models: [model] } } }));
writeFileSync(join(home, ".pi/agent/settings.json"), JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-text" }));
const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
const cmd = process.env.PI_CMD ? process.env.PI_CMD.split(" ") : ["/work/main/dist/pi"];
const proc = Bun.spawn([...cmd, ...(process.env.PI_ARGS ? process.env.PI_ARGS.split(" ") : [])], {
	cwd: join(home, "work"),
	env: { PATH: process.env.PATH ?? "", HOME: home, TERM: "xterm-256color", PI_CODING_AGENT_DIR: join(home, ".pi/agent"), HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1,localhost", PI_OFFLINE: "1" },
	terminal: { cols: 100, rows: 30, data: (_t, d) => term.write(d) },
});
const screen = () => {
	const b = term.buffer.active;
	const out: string[] = [];
	for (let i = 0; i < term.rows; i++) out.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? "");
	return out.join("\n");
};
const keys: Record<string, string> = { enter: "\r", escape: "\x1b", "ctrl+c": "\x03", "ctrl+d": "\x04", "alt+enter": "\x1b\r", "ctrl+o": "\x0f", "cc": "\x03" };
const quick: Record<string, string[]> = { "ctrl+c*2": ["\x03", "\x03"] };
await Bun.sleep(2500);
console.log("=== start\n" + screen());
for (const step of process.argv.slice(2)) {
	if (step.startsWith("sleep:")) { await Bun.sleep(Number(step.slice(6))); continue; }
	if (quick[step]) { for (const k of quick[step]) { proc.terminal?.write(k); await Bun.sleep(50); } }
	else proc.terminal?.write(keys[step] ?? step);
	await Bun.sleep(700);
	console.log(`=== after ${JSON.stringify(step)}\n` + screen());
}
const code = await Promise.race([proc.exited, Bun.sleep(3000).then(() => "running")]);
console.log("=== exit:", code);
if (code === "running") proc.kill();
server.stop();
process.exit(0);
