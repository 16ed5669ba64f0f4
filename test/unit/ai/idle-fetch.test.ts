/**
 * The HTTP idle timeout: a server that sends nothing (no headers, or no next bytes of the body) for the timeout
 * fails the request as a retryable timeout; data that keeps coming, a caller's abort and a timeout of 0 do not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { type AssistantMessage, classifyError, fetchWithIdleTimeout, IdleTimeoutError } from "../../../src/ai/index.ts";

const encoder = new TextEncoder();
const server = Bun.serve({
	hostname: "127.0.0.1",
	port: 0,
	idleTimeout: 0,
	async fetch(req) {
		const path = new URL(req.url).pathname;
		if (path === "/no-headers") await Bun.sleep(400);
		const body = new ReadableStream<Uint8Array>({
			async start(controller) {
				for (let i = 0; i < 4; i++) {
					controller.enqueue(encoder.encode(`chunk ${i}\n`));
					// "/slow" keeps sending every 60 ms; "/stall" stops after the first chunk.
					await Bun.sleep(path === "/stall" && i === 0 ? 2_000 : 60);
				}
				controller.close();
			},
		});
		return new Response(body);
	},
});
afterAll(() => server.stop(true));
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

describe("fetchWithIdleTimeout", () => {
	test("a body that stops sending fails after the idle timeout, as a retryable timeout", async () => {
		const response = await fetchWithIdleTimeout(url("/stall"), {}, fetch, 150);
		const started = performance.now();
		const error = await response.text().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(IdleTimeoutError);
		expect(performance.now() - started).toBeLessThan(1_000);
		const failed = { stopReason: "error", errorMessage: `X ${(error as Error).message}` } as AssistantMessage;
		expect(classifyError(failed).retryable).toBe(true);
	});

	test("no headers within the timeout fails the same way", async () => {
		const error = await fetchWithIdleTimeout(url("/no-headers"), {}, fetch, 150).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(IdleTimeoutError);
	});

	test("a body that keeps coming, slower in total than the timeout, is read whole", async () => {
		const response = await fetchWithIdleTimeout(url("/slow"), {}, fetch, 150);
		expect(await response.text()).toBe("chunk 0\nchunk 1\nchunk 2\nchunk 3\n");
	});

	test("the caller's abort is an abort, not a timeout; 0 turns the timeout off", async () => {
		const controller = new AbortController();
		const response = await fetchWithIdleTimeout(url("/stall"), { signal: controller.signal }, fetch, 1_000);
		setTimeout(() => controller.abort(), 50);
		const error = await response.text().catch((e: unknown) => e);
		expect(error).not.toBeInstanceOf(IdleTimeoutError);
		const off = await fetchWithIdleTimeout(url("/slow"), {}, fetch, 0);
		expect(await off.text()).toContain("chunk 3");
	});
});
