/**
 * StdinBuffer parity with pi-tui 0.87.1: the same chunk sequences (batched keys, sequences split across reads,
 * lone ESC with and without a following byte, bracketed pastes, 8-bit meta bytes, flush/clear/getBuffer) go to
 * pi's StdinBuffer under Node (one process) and to ours; the events must be the same.
 *
 * One deliberate difference: pi splits text into UTF-16 code units, so a character outside the BMP (an emoji)
 * reaches it as two `data` events with lone surrogates; ours keeps the character whole. The comparison joins pi's
 * surrogate halves.
 */
import { expect, test } from "bun:test";
import { StdinBuffer } from "../../src/tui/index.ts";
import { piTuiReference } from "../support/pi-tui-reference.ts";

type Step = string | { wait: number } | { bytes: number[] } | { op: "flush" | "clear" | "getBuffer" | "destroy" };
interface Case {
	options?: { timeout?: number; escapeTimeout?: number };
	steps: Step[];
}

const CASES: Case[] = [
	{ steps: ["abc"] },
	{ steps: ["\x1b[A\x1b[B\x1b[1;5C"] },
	{ steps: ["a\x1b[97;5ub\r\x7f\t"] },
	{ steps: ["\x1b[<0;10;5M\x1b[<0;11;5m\x1b[<35;20;5M"] },
	{ steps: ["\x1b[97ua\x1b[98uc\x1b[99u"] },
	{ steps: ["\x1b[97u", "a", "a"] },
	{ steps: ["\x1b[97;2ua"] },
	{ steps: ["\x1b", "[A"] },
	{ steps: ["\x1b[", "1;5", "C"] },
	{ steps: ["\x1b[<35", ";20;5m"] },
	{ steps: ["\x1b]11;rgb:0000/0000/0000", "\x07x"] },
	{ steps: ["\x1b]8;;http://x\x1b\\y"] },
	{ steps: ["\x1bP>|xterm(1)", "\x1b\\"] },
	{ steps: ["\x1b_Gi=1;OK", "\x1b\\"] },
	{ steps: ["\x1bOP\x1bO", "Q"] },
	{ steps: ["\x1b[M !!\x1b[M", "#$%"] },
	{ steps: ["\x1b"] },
	{ steps: ["\x1b", { wait: 40 }, "a"] },
	{ steps: ["\x1b", "a"] },
	{ steps: ["\x1ba\x1b\x03\x1b\x1b"] },
	{ steps: ["\x1b\x1b[27;1:3u"] },
	{ steps: ["\x1b\x1b]0;t\x07"] },
	{ steps: ["\x1b[1;"] },
	{ steps: ["\x1b[1;", { wait: 80 }, "5A"] },
	{ options: { escapeTimeout: 60 }, steps: ["\x1b", { wait: 20 }, "b"] },
	{ options: { timeout: 5 }, steps: ["\x1b[12", { wait: 30 }, "~"] },
	{ steps: ["\x1b[200~hello\x1b[201~"] },
	{ steps: ["\x1b[200~hel", "lo wor", "ld\x1b[201~after"] },
	{ steps: ["x\x1b[200~p\x1b[201~y"] },
	{ steps: ["\x1b[200~a\x1b[Ab\x1b\r\n\x1b[201~\x1b[B"] },
	{ steps: ["\x1b[200~abc\x1b[20", "1~z"] },
	{ steps: ["\x1b[200~", "", "\x1b[201~"] },
	{ steps: ["\x1b[200~one\x1b[201~\x1b[200~two\x1b[201~"] },
	{ steps: ["\x1b[97u\x1b[200~a\x1b[201~a"] },
	{ steps: [""] },
	{ steps: ["a", ""] },
	{ steps: [{ bytes: [0xe1] }] },
	{ steps: [{ bytes: [0x61, 0x62] }, { bytes: [0xc3, 0xa9] }] },
	{ steps: ["é日ü"] },
	{ steps: ["a😀b"] },
	{ steps: ["\x1b[1", { op: "getBuffer" }, { op: "flush" }, { op: "getBuffer" }, "x"] },
	{ steps: ["\x1b[1", { op: "clear" }, { wait: 80 }, "y"] },
	{ steps: ["\x1b[200~abc", { op: "clear" }, "z"] },
	{ steps: ["\x1b", { op: "destroy" }, { wait: 40 }] },
	{ steps: ["\x1b[?62;c\x1b[?7u"] },
	{ steps: ["\x1b[27;5;97~\x1b[27;2;13~"] },
];

const EVALUATE = `
const runCase = async (c) => {
	const events = [];
	const buffer = new api.StdinBuffer(c.options ?? {});
	buffer.on("data", (d) => events.push(["data", d]));
	buffer.on("paste", (d) => events.push(["paste", d]));
	for (const step of c.steps) {
		if (typeof step === "string") buffer.process(step);
		else if ("wait" in step) await new Promise((r) => setTimeout(r, step.wait));
		else if ("bytes" in step) buffer.process(Buffer.from(step.bytes));
		else if (step.op === "flush") events.push(["flush", buffer.flush()]);
		else if (step.op === "getBuffer") events.push(["getBuffer", buffer.getBuffer()]);
		else buffer[step.op]();
	}
	await new Promise((r) => setTimeout(r, 150));
	events.push(["end", buffer.getBuffer()]);
	buffer.destroy();
	return events;
};
return await Promise.all(input.map(runCase));`;

type Event = [string, unknown];

/** pi emits the two halves of a surrogate pair as separate data events: join them. */
function joinSurrogates(events: Event[]): Event[] {
	const out: Event[] = [];
	for (const event of events) {
		const prev = out[out.length - 1];
		if (
			prev?.[0] === "data" &&
			event[0] === "data" &&
			/^[\uD800-\uDBFF]$/.test(prev[1] as string) &&
			/^[\uDC00-\uDFFF]$/.test(event[1] as string)
		) {
			prev[1] = (prev[1] as string) + (event[1] as string);
		} else out.push([event[0], event[1]]);
	}
	return out;
}

test("StdinBuffer events agree with pi-tui 0.87.1 for the same chunks", async () => {
	const reference = piTuiReference("tui-stdin-buffer-parity");
	if (!reference) return;
	const theirs = await reference.run<Event[][]>(`const api = tui;${EVALUATE}`, CASES);
	const run = new Function("api", "input", `return (async () => {${EVALUATE}})();`);
	const mine = (await run({ StdinBuffer }, CASES)) as Event[][];
	const mismatches: string[] = [];
	CASES.forEach((c, i) => {
		const a = JSON.stringify(joinSurrogates(theirs[i] as Event[]));
		const b = JSON.stringify(mine[i]);
		if (a !== b) mismatches.push(`${JSON.stringify(c.steps)}\n  pi:   ${a}\n  ours: ${b}`);
	});
	expect(mismatches.join("\n")).toBe("");
}, 120_000);
