import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
	type JsonAgentSessionEvent,
	type ModelInfo,
	RpcClient,
	type RpcClientOptions,
	RpcError,
	type RpcExtensionUIRequest,
} from "../../../src/modes/rpc/index.ts";

const FAKE_SERVER = join(import.meta.dir, "../../support/fake-rpc-server.ts");

const clients: RpcClient[] = [];

/** A client on the fake server, run with this bun; stopped after each test. */
async function startClient(options: RpcClientOptions = {}): Promise<RpcClient> {
	const client = new RpcClient({
		command: process.execPath,
		cliPath: FAKE_SERVER,
		forwardStderr: false,
		startupDelay: 10,
		...options,
	});
	clients.push(client);
	await client.start();
	return client;
}

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.stop()));
});

describe("RpcClient against a fake server", () => {
	test("spawns `command cliPath --mode rpc --provider --model args…` and reads get_state", async () => {
		const client = await startClient({ provider: "p", model: "m", args: ["--no-session"] });
		const state = await client.getState();
		expect(state.sessionId).toBe("fake-session");
		expect(state.sessionName).toBe("--mode rpc --provider p --model m --no-session");
		expect(client.getStderr()).toContain("fake-rpc-server ready");
	});

	test("correlates concurrent requests by id, also when answers come out of order", async () => {
		const client = await startClient();
		const slow = client.getSessionStats();
		const fast = Promise.all(Array.from({ length: 50 }, () => client.getState()));
		const states = await fast;
		expect(states.every((state) => state.sessionId === "fake-session")).toBe(true);
		expect((await slow).sessionId).toBe("late");
	});

	test("promptAndWait collects events through agent_settled; text survives U+2028 and multi-byte chars", async () => {
		const client = await startClient();
		const events = await client.promptAndWait("hello", undefined, 5000);
		expect(events.map((event) => event.type)).toEqual(["agent_start", "message_update", "agent_end", "agent_settled"]);
		const update = events[1] as Extract<JsonAgentSessionEvent, { type: "message_update" }>;
		expect(update.assistantMessageEvent).toMatchObject({ type: "text_delta", delta: "echo: hello \u2028 é" });
	});

	test("onEvent returns an unsubscribe; waitForIdle resolves at agent_settled", async () => {
		const client = await startClient();
		const seen: string[] = [];
		const unsubscribe = client.onEvent((event) => seen.push(event.type));
		const idle = client.waitForIdle(5000);
		await client.prompt("one");
		await idle;
		unsubscribe();
		const count = seen.length;
		await client.promptAndWait("two", undefined, 5000);
		expect(count).toBe(4);
		expect(seen.length).toBe(count);
	});

	test("extension UI: requests reach listeners and answers go back", async () => {
		const client = await startClient();
		const requests: RpcExtensionUIRequest[] = [];
		client.onExtensionUIRequest((request) => {
			requests.push(request);
			client.respondToExtensionUI({ type: "extension_ui_response", id: request.id, value: "Allow" });
		});
		const events = await client.promptAndWait("ui", undefined, 5000);
		expect(requests).toEqual([
			{ type: "extension_ui_request", id: "ui-1", method: "select", title: "Allow?", options: ["Allow", "Block"] },
		]);
		const end = events.find((event) => event.type === "message_end");
		expect(end).toMatchObject({ message: { answer: { id: "ui-1", value: "Allow" } } });
	});

	test("a failure response rejects with RpcError carrying the server's text", async () => {
		const client = await startClient();
		const error = await client.setModel("nope", "missing").catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RpcError);
		expect((error as RpcError).message).toBe("Model not found: nope/missing");
		expect((error as RpcError).command).toBe("set_model");
		expect((error as RpcError).response).toMatchObject({ success: false, command: "set_model" });
	});

	test("data-less commands resolve; get_last_assistant_text with `data:{}` gives null", async () => {
		const client = await startClient();
		await client.setThinkingLevel("high");
		await client.abort();
		expect(await client.getLastAssistantText()).toBeNull();
	});

	test("promptAndWait: a rejected prompt rejects and leaves no collector behind", async () => {
		const client = await startClient();
		await expect(client.promptAndWait("busy", undefined, 5000)).rejects.toThrow("Agent is already processing.");
		const seen: string[] = [];
		client.onEvent((event) => seen.push(event.type));
		await client.promptAndWait("after", undefined, 5000);
		expect(seen).toContain("agent_settled");
	});

	test("waitForIdle can be aborted; a throwing listener does not stop the others", async () => {
		const client = await startClient();
		const cancel = new AbortController();
		const waiting = client.waitForIdle(5000, { signal: cancel.signal });
		cancel.abort();
		await expect(waiting).rejects.toThrow("aborted");
		const writes: string[] = [];
		const write = process.stderr.write;
		process.stderr.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof process.stderr.write;
		try {
			client.onEvent(() => {
				throw new Error("listener bug");
			});
			const events = await client.promptAndWait("x", undefined, 5000);
			expect(events.at(-1)?.type).toBe("agent_settled");
		} finally {
			process.stderr.write = write;
		}
		expect(writes.join("")).toContain("listener bug");
	});

	test("per-request timeout", async () => {
		const client = await startClient({ requestTimeout: 5000 });
		const started = Date.now();
		await expect(client.request({ type: "get_messages" }, { timeout: 100 })).rejects.toThrow(
			"Timeout waiting for response to get_messages",
		);
		expect(Date.now() - started).toBeLessThan(2000);
		// The client still works afterwards.
		expect((await client.getState()).sessionId).toBe("fake-session");
	});

	test("process exit rejects pending requests and later calls at once", async () => {
		const client = await startClient();
		const hanging = client.getMessages().catch((error: unknown) => error);
		const exit = client.prompt("exit");
		await expect(exit).rejects.toThrow(/Agent process exited \(code=3/);
		expect(String(await hanging)).toMatch(/Agent process exited/);
		await expect(client.getState()).rejects.toThrow(/Agent process exited/);
		await expect(client.waitForIdle(5000)).rejects.toThrow(/Agent process exited/);
	});

	test("stop closes stdin (the server exits 0) and rejects what was pending", async () => {
		const client = await startClient();
		const pid = client.pid;
		expect(pid).toBeNumber();
		const hanging = client.getMessages().catch((error: unknown) => error);
		await client.stop();
		expect(String(await hanging)).toContain("Client stopped");
		expect(() => process.kill(pid as number, 0)).toThrow();
		await expect(client.getState()).rejects.toThrow("Client not started");
	});

	test("start fails when the executable does not exist or exits at once", async () => {
		const missing = new RpcClient({ cliPath: "/nonexistent/pi-binary", forwardStderr: false });
		await expect(missing.start()).rejects.toThrow(/Agent process/);
		const quitter = new RpcClient({
			command: process.execPath,
			commandArgs: ["-e", "process.stderr.write('bad flag'); process.exit(2)"],
			forwardStderr: false,
			startupDelay: 2000,
		});
		await expect(quitter.start()).rejects.toThrow(/code=2.*bad flag/);
	});

	test("start twice is refused", async () => {
		const client = await startClient();
		await expect(client.start()).rejects.toThrow("Client already started");
	});

	test("code written against pi's RpcClient types type-checks", () => {
		// Compile-time check (tsc): the shapes pi's rpc-client.d.ts declares are satisfied.
		const usage = async (client: RpcClient) => {
			const model: { provider: string; id: string } = await client.setModel("anthropic", "claude");
			const models: ModelInfo[] = await client.getAvailableModels();
			const cycled = await client.cycleModel();
			const cycledId: string | undefined = cycled?.model.id;
			const levels: string[] = await client.getAvailableThinkingLevels();
			const text: string | null = await client.getLastAssistantText();
			const { entries, leafId } = await client.getEntries("abc");
			const fork: { text: string; cancelled: boolean } = await client.fork("e1");
			const queue: { steering: string[]; followUp: string[] } = await client.clearQueue();
			const unsubscribe: () => void = client.onEvent((event: JsonAgentSessionEvent) => {
				if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
					const delta: string = event.assistantMessageEvent.delta;
					return delta;
				}
			});
			unsubscribe();
			return [model, models, cycledId, levels, text, entries, leafId, fork, queue];
		};
		expect(typeof usage).toBe("function");
	});
});
