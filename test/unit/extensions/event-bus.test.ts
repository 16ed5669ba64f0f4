import { describe, expect, test } from "bun:test";
import { createEventBus } from "../../../src/extensions/index.ts";

describe("event bus", () => {
	test("delivers to listeners and unsubscribes", () => {
		const bus = createEventBus();
		const seen: unknown[] = [];
		const off = bus.on("ch", (data) => seen.push(data));
		bus.emit("ch", 1);
		off();
		bus.emit("ch", 2);
		expect(seen).toEqual([1]);
	});
	test("a throwing or rejecting listener never reaches the emitter", async () => {
		const errors: string[] = [];
		const bus = createEventBus((channel, error) => errors.push(`${channel}:${(error as Error).message}`));
		const seen: unknown[] = [];
		bus.on("ch", () => {
			throw new Error("sync");
		});
		bus.on("ch", async () => {
			throw new Error("async");
		});
		bus.on("ch", (data) => seen.push(data));
		expect(() => bus.emit("ch", "x")).not.toThrow();
		await Bun.sleep(1);
		expect(seen).toEqual(["x"]);
		expect(errors.sort()).toEqual(["ch:async", "ch:sync"]);
	});
});
