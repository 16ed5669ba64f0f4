import { describe, expect, test } from "bun:test";
import { preconnect } from "../../../src/ai/index.ts";

function recorder(): { urls: string[]; start: (url: string) => void } {
	const urls: string[] = [];
	return {
		urls,
		start: (url) => {
			urls.push(url);
			if (url.includes("bad")) throw new Error("cannot");
		},
	};
}

describe("preconnect", () => {
	test("connects ahead to http(s) base URLs only", () => {
		const { urls, start } = recorder();
		preconnect({ baseUrl: "https://api.example.test/v1" }, start);
		preconnect({ baseUrl: "http://127.0.0.1:9" }, start);
		preconnect({ baseUrl: "faux://local" }, start);
		preconnect({ baseUrl: "" }, start);
		expect(urls).toEqual(["https://api.example.test/v1", "http://127.0.0.1:9"]);
	});

	test("a URL that cannot be preconnected is ignored; without fetch.preconnect nothing happens", () => {
		const { start } = recorder();
		expect(() => preconnect({ baseUrl: "https://bad.example.test" }, start)).not.toThrow();
		// null stands for a runtime without fetch.preconnect (undefined would select the real one).
		expect(() => preconnect({ baseUrl: "https://api.example.test" }, null as never)).not.toThrow();
	});

	test("under Bun the default is fetch.preconnect", () => {
		expect(typeof (fetch as { preconnect?: unknown }).preconnect).toBe("function");
	});
});
