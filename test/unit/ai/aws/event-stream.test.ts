import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { ensureRunnablePi } from "../../../../scripts/conformance-cache.ts";
import {
	crc32,
	decodeMessage,
	EventStreamDecoder,
	EventStreamError,
	type EventStreamMessage,
} from "../../../../src/ai/aws/event-stream.ts";

const enc = new TextEncoder();

/** Our own minimal encoder for string headers, to build test input. */
function encode(headers: Record<string, string>, payload: string): Uint8Array {
	const parts: number[] = [];
	for (const [name, value] of Object.entries(headers)) {
		const n = enc.encode(name);
		const v = enc.encode(value);
		parts.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
	}
	const body = enc.encode(payload);
	const total = 12 + parts.length + body.length + 4;
	const out = new Uint8Array(total);
	const view = new DataView(out.buffer);
	view.setUint32(0, total);
	view.setUint32(4, parts.length);
	view.setUint32(8, crc32(out, 0, 8));
	out.set(parts, 12);
	out.set(body, 12 + parts.length);
	view.setUint32(total - 4, crc32(out, 0, total - 4));
	return out;
}

const text = (m: EventStreamMessage) => new TextDecoder().decode(m.payload);

describe("AWS event-stream decoder", () => {
	test("CRC32 is the IEEE one", () => {
		expect(crc32(enc.encode("123456789"))).toBe(0xcbf43926);
	});

	test("decodes messages split at every possible byte boundary", () => {
		const a = encode({ ":event-type": "messageStart", ":message-type": "event" }, '{"role":"assistant"}');
		const b = encode({ ":event-type": "contentBlockDelta" }, '{"delta":{"text":"hé"}}');
		const all = new Uint8Array([...a, ...b]);
		for (let cut = 0; cut <= all.length; cut++) {
			const d = new EventStreamDecoder();
			const got = [...d.push(all.subarray(0, cut)), ...d.push(all.subarray(cut))];
			d.end();
			expect(got.map((m) => m.headers[":event-type"]?.value)).toEqual(["messageStart", "contentBlockDelta"]);
			expect(got.map(text)).toEqual(['{"role":"assistant"}', '{"delta":{"text":"hé"}}']);
		}
		// One byte at a time.
		const d = new EventStreamDecoder();
		const got: EventStreamMessage[] = [];
		for (const byte of all) got.push(...d.push(new Uint8Array([byte])));
		expect(got).toHaveLength(2);
	});

	test("a corrupted payload or prelude is a CRC error, a truncated stream an error at the end", () => {
		const m = encode({ ":event-type": "x" }, "payload");
		const badPayload = m.slice();
		badPayload[m.length - 6] = (m[m.length - 6] as number) ^ 1;
		expect(() => new EventStreamDecoder().push(badPayload)).toThrow("message CRC mismatch");
		const badPrelude = m.slice();
		badPrelude[3] = (m[3] as number) ^ 1;
		expect(() => new EventStreamDecoder().push(badPrelude)).toThrow("prelude CRC mismatch");
		const d = new EventStreamDecoder();
		expect(d.push(m.subarray(0, 20))).toEqual([]);
		expect(() => d.end()).toThrow(EventStreamError);
	});

	test("decodes every header type from bytes the AWS SDK's own encoder produced", () => {
		// @smithy/core's EventStreamCodec (pi-ai 0.87.1's AWS SDK) encoding of one message with each header type.
		const bytes = Uint8Array.from(
			atob(
				"AAAAfwAAAGhdyUEdCzpldmVudC10eXBlBwARY29udGVudEJsb2NrRGVsdGEBbgX/////////+wFiAAF0CAAAAYvP5WgAAXUJobLD1AAAEREiIjMzRERVVQNiaW4GAAMBAgMCYnkC/gJzaAMBLAFpBP/+7pB7IngiOjF9e2ddWg==",
			),
			(c) => c.charCodeAt(0),
		);
		const m = decodeMessage(bytes);
		expect(m.headers).toEqual({
			":event-type": { type: "string", value: "contentBlockDelta" },
			n: { type: "long", value: -5n },
			b: { type: "boolean", value: true },
			t: { type: "timestamp", value: new Date(1700000000000) },
			u: { type: "uuid", value: "a1b2c3d4-0000-1111-2222-333344445555" },
			bin: { type: "binary", value: new Uint8Array([1, 2, 3]) },
			by: { type: "byte", value: -2 },
			sh: { type: "short", value: 300 },
			i: { type: "integer", value: -70000 },
		});
		expect(text(m)).toBe('{"x":1}');
	});

	test("a stream the SDK encodes live decodes message by message in 7-byte chunks", () => {
		const pi = ensureRunnablePi();
		if ("error" in pi) {
			console.log(`skipped: ${pi.error}`);
			return;
		}
		const script = `import { EventStreamCodec } from "@smithy/core/event-streams";
const codec = new EventStreamCodec((u) => Buffer.from(u).toString("utf8"), (s) => new Uint8Array(Buffer.from(s, "utf8")));
const out = [];
for (let i = 0; i < 5; i++) out.push(codec.encode({ headers: { ":event-type": { type: "string", value: "e" + i }, ":message-type": { type: "string", value: "event" } }, body: new Uint8Array(Buffer.from(JSON.stringify({ i, s: "x".repeat(i * 40) }))) }));
console.log(Buffer.concat(out.map((u) => Buffer.from(u))).toString("base64"));`;
		const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
			cwd: dirname(pi.modules),
			stdout: "pipe",
			stderr: "pipe",
		});
		if (run.exitCode !== 0) throw new Error(`node could not encode: ${run.stderr.toString().slice(0, 800)}`);
		const all = Uint8Array.from(atob(run.stdout.toString().trim()), (c) => c.charCodeAt(0));
		const d = new EventStreamDecoder();
		const got: EventStreamMessage[] = [];
		for (let at = 0; at < all.length; at += 7) got.push(...d.push(all.subarray(at, at + 7)));
		d.end();
		expect(got.map((m) => m.headers[":event-type"]?.value)).toEqual(["e0", "e1", "e2", "e3", "e4"]);
		expect(got.map((m) => JSON.parse(text(m)).i)).toEqual([0, 1, 2, 3, 4]);
	});
});
