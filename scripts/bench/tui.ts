/**
 * Regular-mode renderer cost, ours against pi-tui 0.87.1: a 1,000-message transcript (Text blocks with spacers, an
 * editor line and a footer) on a 100×40 terminal.
 *   first:  the first frame of a freshly built transcript (components render cold), as on resume
 *   full:   renderNow(true), every line written again (ms/frame, bytes/frame)
 *   append: one streamed token added to the last message, renderNow() (ms/frame, bytes/frame)
 *   engine: the same append through a component that costs nothing itself (what remains is the renderer)
 * pi-tui runs under Node 22 (as pi ships) and under Bun (same runtime as ours); ours under Bun.
 * Usage: bun scripts/bench/tui.ts [appendFrames=300] [fullFrames=20]
 */
import { dirname, join } from "node:path";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { median } from "./lib.ts";

const appendFrames = Number(process.argv[2] ?? 300);
const fullFrames = Number(process.argv[3] ?? 20);

/** The workload as an async function body over `tui` (the toolkit module); returns the measurements. */
const WORKLOAD = `
const [appendFrames, fullFrames] = args;
let bytes = 0;
const terminal = { start() {}, stop() {}, async drainInput() {}, write(d) { bytes += Buffer.byteLength(d); },
  columns: 100, rows: 40, kittyProtocolActive: false, moveBy() {}, hideCursor() {}, showCursor() {}, clearLine() {},
  clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {} };
const words = "the quick brown fox jumps over the lazy dog while the renderer keeps up with every token".split(" ");
const build = () => {
  const ui = new tui.TuiMainScreen(terminal);
  const chat = new tui.Container();
  for (let i = 0; i < 1000; i++) {
    const length = 20 + ((i * 37) % 120);
    const text = Array.from({ length }, (_, w) => words[(i + w) % words.length]).join(" ");
    chat.addChild(new tui.Spacer(1));
    chat.addChild(new tui.Text((i % 2 ? "assistant: " : "user: ") + "\x1b[1m" + text.slice(0, 9) + "\x1b[22m" + text.slice(9), 1, 0));
  }
  const streaming = new tui.Text("assistant:", 1, 0);
  chat.addChild(streaming);
  ui.addChild(chat);
  ui.addChild(new tui.Text("> type here", 1, 0));
  ui.addChild(new tui.Text("~/project  model  12.3k tokens", 1, 0));
  return { ui, streaming };
};
const first = [];
const firstBytes = [];
for (let i = 0; i < fullFrames; i++) {
  const fresh = build();
  bytes = 0;
  const t = performance.now();
  fresh.ui.renderNow();
  first.push(performance.now() - t);
  firstBytes.push(bytes);
}
const { ui, streaming } = build();
const lines = ui.render(100).length;
ui.renderNow();
const full = [];
const fullBytes = [];
for (let i = 0; i < fullFrames; i++) {
  bytes = 0;
  const t = performance.now();
  ui.renderNow(true);
  full.push(performance.now() - t);
  fullBytes.push(bytes);
}
let text = "assistant:";
const append = [];
const appendBytes = [];
for (let i = 0; i < appendFrames; i++) {
  text += " " + words[i % words.length];
  streaming.setText(text);
  bytes = 0;
  const t = performance.now();
  ui.renderNow();
  append.push(performance.now() - t);
  appendBytes.push(bytes);
}
// The same append, with a streaming component that costs nothing itself: what is left is the renderer.
class Tail {
  constructor() { this.lines = ["assistant:"]; }
  add(word) {
    const last = this.lines[this.lines.length - 1];
    this.lines = last.length > 90 ? [...this.lines, " " + word] : [...this.lines.slice(0, -1), last + " " + word];
  }
  render() { return this.lines; }
  invalidate() {}
}
const tail = new Tail();
ui.children[0].addChild(tail);
ui.renderNow();
const engine = [];
for (let i = 0; i < appendFrames; i++) {
  tail.add(words[i % words.length]);
  const t = performance.now();
  ui.renderNow();
  engine.push(performance.now() - t);
}
return { lines, first, firstBytes, full, fullBytes, append, appendBytes, engine };
`;

interface Result {
	lines: number;
	first: number[];
	firstBytes: number[];
	full: number[];
	fullBytes: number[];
	append: number[];
	appendBytes: number[];
	engine: number[];
}

function runExternal(runtime: string, moduleUrl: string): Result {
	const script = `const tui = await import(${JSON.stringify(moduleUrl)});
const args = ${JSON.stringify([appendFrames, fullFrames])};
const result = await (async () => { ${WORKLOAD} })();
process.stdout.write(JSON.stringify(result));`;
	const isNode = !runtime.endsWith("bun");
	const cmd = isNode ? [runtime, "--input-type=module", "-e", script] : [runtime, "-e", script];
	const child = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe", cwd: dirname(moduleUrl) });
	if (child.exitCode !== 0) throw new Error(`${runtime}: ${child.stderr.toString()}`);
	return JSON.parse(child.stdout.toString()) as Result;
}

async function runOurs(): Promise<Result> {
	const tui = await import("../../src/tui/index.ts");
	const body = new Function("tui", "args", `return (async () => { ${WORKLOAD} })();`);
	return (await body(tui, [appendFrames, fullFrames])) as Result;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

interface Row {
	label: string;
	first: number;
	full: number;
	append: number;
	engine: number;
}

/** Medians and minimums (the machine may be shared: the minimum is the least disturbed run). */
function row(label: string, r: Result): Row {
	const stat = (values: number[]) => ({ median: median(sorted(values)), min: Math.min(...values) });
	const first = stat(r.first);
	const full = stat(r.full);
	const append = stat(r.append.slice(Math.floor(r.append.length / 3)));
	const engine = stat(r.engine.slice(Math.floor(r.engine.length / 3)));
	const cell = (s: { median: number; min: number }, digits: number) =>
		`${s.median.toFixed(digits)} (${s.min.toFixed(digits)})`;
	console.log(
		`| ${label} | ${r.lines} | ${cell(first, 2)} | ${cell(full, 2)} | ${Math.round(mean(r.fullBytes))} | ${cell(append, 3)} | ${Math.round(mean(r.appendBytes))} | ${cell(engine, 3)} |`,
	);
	return { label, first: first.min, full: full.min, append: append.min, engine: engine.min };
}

const pi = ensureRunnablePi();
console.log(`TUI renderer, 1,000 messages, 100×40, ${fullFrames} full frames, ${appendFrames} one-token appends`);
console.log(
	"| renderer | lines | first frame ms, cold (min) | forced redraw ms (min) | redraw bytes | append to Text ms (min) | append bytes | append, engine only ms (min) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
const ours = row("ours (Bun)", await runOurs());
if ("error" in pi) {
	console.log(`pi-tui comparison skipped: ${pi.error}`);
} else {
	const url = join(pi.modules, "@earendil-works", "pi-tui", "dist", "index.js");
	const onNode = row("pi-tui 0.87.1 (Node 22)", runExternal(pi.node, url));
	const onBun = row("pi-tui 0.87.1 (Bun)", runExternal(process.execPath, url));
	for (const other of [onNode, onBun]) {
		console.log(
			`${other.label} / ours (minimums): first frame ${(other.first / ours.first).toFixed(1)}×, forced redraw ${(other.full / ours.full).toFixed(1)}×, append ${(other.append / ours.append).toFixed(1)}×, engine only ${(other.engine / ours.engine).toFixed(1)}×`,
		);
	}
}
