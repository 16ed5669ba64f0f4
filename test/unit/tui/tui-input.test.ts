import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { type Component, TuiMainScreen } from "../../../src/tui/index.ts";
import { VirtualTerminal } from "../../helpers/screen.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

class Recorder implements Component {
	received: string[] = [];
	renders = 0;
	wantsKeyRelease = false;
	render(): string[] {
		this.renders += 1;
		return [`got ${this.received.join(",")}`];
	}
	handleInput(data: string): void {
		this.received.push(data);
	}
	invalidate(): void {}
}

const open: { tui: TuiMainScreen; term: VirtualTerminal }[] = [];
afterEach(() => {
	for (const { tui, term } of open.splice(0)) {
		tui.stop();
		term.dispose();
	}
});

function setup(): { tui: TuiMainScreen; term: VirtualTerminal; focused: Recorder } {
	const term = new VirtualTerminal(30, 5);
	const tui = new TuiMainScreen(term);
	open.push({ tui, term });
	const focused = new Recorder();
	tui.addChild(focused);
	tui.setFocus(focused);
	tui.start();
	return { tui, term, focused };
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

test("listeners run in order before the focused component, can rewrite or consume input", () => {
	const { tui, term, focused } = setup();
	const seen: string[] = [];
	tui.addInputListener((data) => {
		seen.push(`1:${data}`);
		return data === "a" ? { data: "b" } : undefined;
	});
	const remove = tui.addInputListener((data) => {
		seen.push(`2:${data}`);
		return data === "q" ? { consume: true } : data === "z" ? { data: "" } : undefined;
	});
	term.send("a");
	term.send("q");
	term.send("z");
	expect(seen).toEqual(["1:a", "2:b", "1:q", "2:q", "1:z", "2:z"]);
	expect(focused.received).toEqual(["b"]);
	remove();
	term.send("q");
	expect(focused.received).toEqual(["b", "q"]);
});

test("key releases are filtered unless the component wants them; Shift+Ctrl+D goes to onDebug", () => {
	const { tui, term, focused } = setup();
	const release = "\x1b[97;1:3u";
	term.send(release);
	expect(focused.received).toEqual([]);
	focused.wantsKeyRelease = true;
	term.send(release);
	expect(focused.received).toEqual([release]);
	let debug = 0;
	tui.onDebug = () => {
		debug += 1;
	};
	term.send("\x1b[100;6u");
	expect(debug).toBe(1);
	expect(focused.received).toEqual([release]);
});

test("input renders on the next tick, ahead of the throttle", async () => {
	const { tui, term, focused } = setup();
	await tick(30);
	tui.renderNow();
	tui.requestRender();
	term.send("k");
	await new Promise((resolve) => process.nextTick(resolve));
	await new Promise((resolve) => process.nextTick(resolve));
	expect((await term.screen()).lines[0]).toBe("got k");
	expect(focused.renders).toBeGreaterThan(0);
});

test("requestRender coalesces and throttles to one frame per 16 ms", async () => {
	const { tui, focused } = setup();
	await tick(40);
	const start = focused.renders;
	for (let i = 0; i < 50; i++) tui.requestRender();
	await tick(5);
	await tick(30);
	expect(focused.renders - start).toBe(1);
});

test("requestRender(true) redraws everything", async () => {
	const { tui } = setup();
	await tick(30);
	const before = tui.fullRedraws;
	tui.requestRender(true);
	await tick(5);
	expect(tui.fullRedraws).toBe(before + 1);
});

test("colour queries: OSC 11 and CSI ?996n answers are consumed, not typed", async () => {
	const { tui, term, focused } = setup();
	const background = tui.queryTerminalBackgroundColor({ timeoutMs: 500 });
	expect(term.written).toContain("\x1b]11;?\x07");
	term.send("\x1b]11;rgb:ffff/8080/0000\x07");
	expect(await background).toEqual({ r: 255, g: 128, b: 0 });
	const scheme = tui.queryTerminalColorScheme({ timeoutMs: 500 });
	expect(term.written).toContain("\x1b[?996n");
	term.send("\x1b[?997;2n");
	expect(await scheme).toBe("light");
	const changes: string[] = [];
	tui.onTerminalColorSchemeChange((s) => changes.push(s));
	tui.setTerminalColorSchemeNotifications(true);
	expect(term.written).toContain("\x1b[?2031h");
	term.send("\x1b[?997;1n");
	expect(changes).toEqual(["dark"]);
	expect(focused.received).toEqual([]);
	expect(await tui.queryTerminalBackgroundColor({ timeoutMs: 5 })).toBeUndefined();
	term.send("\x1b]11;rgb:0000/0000/0000\x07");
	expect(focused.received).toEqual([]);
});

test("start/stop add and remove the process handlers that restore the terminal", () => {
	const before = ["exit", "SIGINT", "SIGTERM", "SIGHUP", "uncaughtExceptionMonitor"].map((e) =>
		process.listenerCount(e as "exit"),
	);
	const term = new VirtualTerminal(20, 4);
	const tui = new TuiMainScreen(term);
	tui.start();
	const during = ["exit", "SIGINT", "SIGTERM", "SIGHUP", "uncaughtExceptionMonitor"].map((e) =>
		process.listenerCount(e as "exit"),
	);
	expect(during).toEqual(before.map((n) => n + 1));
	tui.stop();
	const after = ["exit", "SIGINT", "SIGTERM", "SIGHUP", "uncaughtExceptionMonitor"].map((e) =>
		process.listenerCount(e as "exit"),
	);
	expect(after).toEqual(before);
	term.dispose();
});

const CHILD = (kind: string, log: string) => `
import { appendFileSync } from "node:fs";
import { TuiMainScreen } from ${JSON.stringify(join(import.meta.dir, "../../../src/tui/index.ts"))};
const log = (s) => appendFileSync(${JSON.stringify(log)}, s + "\\n");
const term = { start() { log("start"); }, stop() { log("stop"); }, async drainInput() {}, write(d) {
  if (d.includes("\\x1b[?25h")) log("show"); }, columns: 20, rows: 5, kittyProtocolActive: false, moveBy() {},
  hideCursor() {}, showCursor() { log("show"); }, clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {},
  setProgress() {} };
const tui = new TuiMainScreen(term);
tui.addChild({ render: () => ["hello"], invalidate() {} });
tui.start();
tui.renderNow();
log("ready");
${kind === "crash" ? 'setTimeout(() => { throw new Error("boom"); }, 10);' : kind === "exit" ? "setTimeout(() => process.exit(3), 10);" : "setInterval(() => {}, 1000);"}
`;

test("the terminal is restored on a crash, on exit and on SIGINT/SIGTERM/SIGHUP", async () => {
	const dir = makeTempDir("tui-restore");
	for (const kind of ["crash", "exit", "SIGINT", "SIGTERM", "SIGHUP"]) {
		const log = join(dir, `${kind}.log`);
		const script = join(dir, `${kind}.ts`);
		await Bun.write(script, CHILD(kind, log));
		const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
		if (kind.startsWith("SIG")) {
			for (let i = 0; i < 200 && !(await Bun.file(log).exists()); i++) await tick(25);
			for (let i = 0; i < 200 && !(await Bun.file(log).text()).includes("ready"); i++) await tick(25);
			child.kill(kind as NodeJS.Signals);
		}
		await child.exited;
		const lines = (await Bun.file(log).text()).trim().split("\n");
		expect({ kind, lines }).toEqual({ kind, lines: ["start", "ready", "show", "stop"] });
		if (kind.startsWith("SIG")) expect({ kind, signal: child.signalCode }).toEqual({ kind, signal: kind as never });
		else expect({ kind, code: child.exitCode }).toEqual({ kind, code: kind === "crash" ? 1 : 3 });
	}
});
