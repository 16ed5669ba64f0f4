/**
 * The mock LLM as its own process, for benchmarks and manual runs: `bun test/support/mock-llm/serve.ts [steps.json]`
 * prints its base URL on the first line of stdout, then serves the steps in the JSON file (an array of MockStep),
 * repeating the whole list when it runs out. Stops after 60 s without requests, or on stdin EOF.
 */
import { readFileSync } from "node:fs";
import { startMockLlm } from "./server.ts";
import type { MockStep } from "./types.ts";

const file = process.argv[2];
const steps: MockStep[] = file ? JSON.parse(readFileSync(file, "utf8")) : [{ kind: "reply", text: "Hello!" }];
const server = startMockLlm({ idleTimeoutMs: 60_000 });
const refill = () => {
	if (server.pending() < steps.length) server.push(...steps);
};
refill();
setInterval(refill, 5).unref();
console.log(server.url);
process.stdin.on("end", () => {
	server.stop();
	process.exit(0);
});
process.stdin.resume();
