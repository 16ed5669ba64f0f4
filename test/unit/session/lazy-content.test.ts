/**
 * Large message lines keep their content on disk: the reopened session's messages read exactly as written (through
 * every way code reads an object), the content is read back on use, and a file rewritten behind pi's back gives a
 * clear placeholder and one diagnostic instead of wrong content or a crash.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { estimateTokens } from "../../../src/compaction/index.ts";
import { SessionManager } from "../../../src/session/index.ts";
import { Bytes, objectMembers } from "../../../src/session/json-members.ts";
import { isDeferred, LAZY_CONTENT_MIN } from "../../../src/session/lazy-content.ts";
import { measuredContent } from "../../../src/util/index.ts";
import { cleanupTempDirs, readJsonl, tempDir, toolCallAssistant, toolResult, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Text that needs escapes everywhere: quotes, backslashes before quotes, newlines, non-ASCII, braces. */
function awkward(bytes: number): string {
	const unit = 'a "quoted" \\"x\\" } ] { [ line\nnext – ünïcødé 😀 \\\\';
	return unit.repeat(Math.ceil(bytes / unit.length));
}

function bigSession(): { file: string; written: unknown[] } {
	const dir = tempDir();
	const m = SessionManager.create("/tmp/project", dir);
	const written: unknown[] = [user("hello")];
	m.appendMessage(user("hello"));
	const image = { type: "image", data: Buffer.alloc(300 * 1024, 9).toString("base64"), mimeType: "image/png" };
	const results = [
		toolResult("c1", awkward(LAZY_CONTENT_MIN * 2)),
		{ ...toolResult("c2", "x"), content: [{ type: "text", text: "caption" }, image] },
		// A line longer than a prefetch run (walked in windows), with large details after the content.
		{ ...toolResult("c3", awkward(400 * 1024)), details: { log: "d".repeat(300 * 1024) } },
	];
	for (const [i, result] of results.entries()) {
		const call = toolCallAssistant(`c${i + 1}`);
		m.appendMessage(call);
		m.appendMessage(result as never);
		written.push(call, result);
	}
	const file = m.getSessionFile()!;
	m.close();
	return { file, written };
}

describe("large message content stays on disk", () => {
	test("a reopened session's messages read as written; large ones are deferred", () => {
		const { file, written } = bigSession();
		const m = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const messages = m.buildSessionContext().messages;
		expect(JSON.parse(JSON.stringify(messages))).toEqual(JSON.parse(JSON.stringify(written)));
		expect(messages.map((msg) => isDeferred(msg))).toEqual([false, false, true, false, true, false, true]);
		const result = messages[2] as { content: { type: string; text: string }[] };
		expect(result.content[0]!.text).toBe(awkward(LAZY_CONTENT_MIN * 2));
		// Spreading, structuredClone and Object.entries all see the content.
		expect({ ...result }.content).toEqual(result.content);
		expect(structuredClone(result).content).toEqual(result.content);
		expect(Object.fromEntries(Object.entries(result)).content).toEqual(result.content);
		expect(Object.keys(result)).toContain("content");
		expect(m.getDiagnostics()).toEqual([]);
	});

	test("token estimates of deferred contents: measured on disk when plain, read otherwise, same figures", () => {
		const dir = tempDir();
		const m = SessionManager.create("/tmp/project", dir);
		const image = { type: "image", data: "A".repeat(LAZY_CONTENT_MIN * 2), mimeType: "image/png" };
		const results = [
			toolResult("c1", "plain ascii ".repeat(LAZY_CONTENT_MIN / 4)),
			{ ...toolResult("c2", "x"), content: [{ type: "text", text: "caption" }, image, image] },
			toolResult("c3", awkward(LAZY_CONTENT_MIN * 2)),
		];
		const written: unknown[] = [];
		m.appendMessage(user("u"));
		for (const [i, result] of results.entries()) {
			m.appendMessage(toolCallAssistant(`c${i + 1}`));
			m.appendMessage(result as never);
			written.push(result);
		}
		const file = m.getSessionFile()!;
		m.close();
		const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const deferred = reopened.buildSessionContext().messages.filter((msg) => isDeferred(msg));
		expect(deferred).toHaveLength(3);
		expect(measuredContent(deferred[0]!)).toEqual({ chars: 12 * (LAZY_CONTENT_MIN / 4), images: 0 });
		expect(measuredContent(deferred[1]!)).toEqual({ chars: 7, images: 2 });
		// Escapes and non-ASCII text: not measured on disk; the estimate reads the content.
		expect(measuredContent(deferred[2]!)).toBeUndefined();
		expect(deferred.map((msg) => estimateTokens(msg))).toEqual(written.map((msg) => estimateTokens(msg as never)));
		// Once the content is replaced, the measure is gone with it.
		(deferred[0] as { content: unknown }).content = "short";
		expect(measuredContent(deferred[0]!)).toBeUndefined();
	});

	test("assigning content replaces the deferred value; a fork writes the full content", () => {
		const { file, written } = bigSession();
		const m = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const [, , result] = m.buildSessionContext().messages as { content: unknown }[];
		result!.content = [{ type: "text", text: "replaced" }];
		expect(result!.content).toEqual([{ type: "text", text: "replaced" }]);
		expect(isDeferred(result!)).toBe(false);

		const other = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const forked = other.forkToNewFile()!;
		other.close();
		const lines = readJsonl(forked).filter((l) => l.type === "message");
		expect(lines.map((l) => l.message)).toEqual(JSON.parse(JSON.stringify(written)));
	});

	test("a file rewritten behind pi's back: a placeholder and one diagnostic, not wrong content", () => {
		const { file } = bigSession();
		const m = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const messages = m.buildSessionContext().messages as { content: { type: string; text?: string }[] }[];
		Bun.gc(true);
		// Same length, different bytes: the entry ids are overwritten.
		const text = readFileSync(file, "latin1");
		writeFileSync(file, text.replace(/"id":"([0-9a-f]{8})"/g, '"id":"ffffffff"'), "latin1");
		const first = messages[2]!.content;
		expect(first).toHaveLength(1);
		expect(first[0]!.text).toContain("content unavailable");
		expect(first[0]!.text).toContain(file);
		void messages[2]!.content;
		const notes = m.getDiagnostics().filter((d) => d.includes("unavailable"));
		expect(notes).toHaveLength(1);
		expect(notes[0]).toContain(`${file}:`);
	});

	test("a line whose keys are written with escapes is parsed whole", () => {
		const dir = tempDir();
		const m = SessionManager.create("/tmp/project", dir);
		m.appendMessage(user("hi"));
		m.appendMessage(toolCallAssistant("c1"));
		m.appendMessage(toolResult("c1", "z".repeat(LAZY_CONTENT_MIN * 2)));
		const file = m.getSessionFile()!;
		m.close();
		writeFileSync(
			file,
			readFileSync(file, "utf8").replace(
				'"content":[{"type":"text","text":"zz',
				'"con\\u0074ent":[{"type":"text","text":"zz',
			),
		);
		const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const messages = reopened.buildSessionContext().messages;
		expect(isDeferred(messages[2]!)).toBe(false);
		expect((messages[2] as { content: { text: string }[] }).content[0]!.text).toHaveLength(LAZY_CONTENT_MIN * 2);
	});
});

describe("objectMembers", () => {
	const cases: [string, Record<string, string>][] = [
		['{"a":1,"b":"x\\"y","c":[{"d":"]}"}],"e":null}', { b: '"x\\"y"', c: '[{"d":"]}"}]' }],
		['{ "b" : "\\\\" , "c" : { } }', { b: '"\\\\"', c: "{ }" }],
		['{"b":1,"b":2}', { b: "2" }],
	];
	for (const [json, want] of cases) {
		test(`finds members of ${json}`, () => {
			const buf = Buffer.from(json);
			for (const window of [buf.length, 2]) {
				// A window of two bytes pages at almost every step: the walk must not depend on what is in memory.
				const read = (offset: number, length: number) => buf.subarray(offset, offset + length);
				const bytes = new Bytes(Buffer.alloc(0), 0, { read, lo: 0, hi: buf.length, window });
				const found = objectMembers(bytes, 0, buf.length, ["b", "c"])!;
				const got = Object.fromEntries([...found].map(([k, r]) => [k, json.slice(r.start, r.end)]));
				expect(got).toEqual(want);
			}
		});
	}
	test("an inner object is walked in the same pass: its members come with its range", () => {
		const json = '{"id":"a","message":{"role":"x","content":["}",{"t":"\\""}],"n":1},"z":2}';
		const buf = Buffer.from(json);
		for (const window of [buf.length, 2]) {
			const read = (offset: number, length: number) => buf.subarray(offset, offset + length);
			const bytes = new Bytes(Buffer.alloc(0), 0, { read, lo: 0, hi: buf.length, window });
			const found = objectMembers(bytes, 0, buf.length, ["id", "message"], { key: "message", keys: ["content"] })!;
			const message = found.get("message")!;
			expect(json.slice(message.start, message.end)).toBe('{"role":"x","content":["}",{"t":"\\""}],"n":1}');
			const content = message.members!.get("content")!;
			expect(json.slice(content.start, content.end)).toBe('["}",{"t":"\\""}]');
			expect(json.slice(found.get("id")!.start, found.get("id")!.end)).toBe('"a"');
		}
	});

	test("not an object, or cut short: undefined", () => {
		for (const json of ['["a"]', '{"a":"open', '{"a" 1}', '{"a":1']) {
			const buf = Buffer.from(json);
			expect(objectMembers(new Bytes(buf, 0), 0, buf.length, ["a"])).toBeUndefined();
		}
	});
});
