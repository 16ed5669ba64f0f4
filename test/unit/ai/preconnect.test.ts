import { afterEach, describe, expect, test } from "bun:test";
import { preconnect } from "../../../src/ai/index.ts";

const original = (fetch as { preconnect?: unknown }).preconnect;
afterEach(() => {
	(fetch as { preconnect?: unknown }).preconnect = original;
});

function recordPreconnects(): string[] {
	const urls: string[] = [];
	(fetch as { preconnect?: unknown }).preconnect = (url: string) => {
		urls.push(url);
		if (url.includes("bad")) throw new Error("cannot");
	};
	return urls;
}

describe("preconnect", () => {
	test("connects ahead to http(s) base URLs only", () => {
		const urls = recordPreconnects();
		preconnect({ baseUrl: "https://api.example.test/v1" });
		preconnect({ baseUrl: "http://127.0.0.1:9" });
		preconnect({ baseUrl: "faux://local" });
		preconnect({ baseUrl: "" });
		expect(urls).toEqual(["https://api.example.test/v1", "http://127.0.0.1:9"]);
	});

	test("a URL fetch cannot preconnect to is ignored, and without fetch.preconnect nothing happens", () => {
		recordPreconnects();
		expect(() => preconnect({ baseUrl: "https://bad.example.test" })).not.toThrow();
		(fetch as { preconnect?: unknown }).preconnect = undefined;
		expect(() => preconnect({ baseUrl: "https://api.example.test" })).not.toThrow();
	});
});
