/**
 * The terminal-UI benchmark's workload, written against pi-tui's public API so the very same code runs under Node
 * with pi-tui 0.87.1 and under Bun with ours. argv: <module URL or path> <messages> <tokens>. Prints one JSON line.
 *
 * A 1,000-message transcript (markdown with a heading, a list and a fenced code block; tool output as plain text) is
 * put into a `TuiMainScreen` drawing on a fake 120×40 terminal that only counts bytes. Measured: the first frame
 * (cold: every component renders), a forced full redraw (warm caches, every line written again), and appending one
 * streamed token to the last message (the frame a user waits for while the model streams).
 */
const [modulePath, messagesArg, tokensArg] = process.argv.slice(2);
const tui = await import(modulePath);
const MESSAGES = Number(messagesArg ?? 1000);
const TOKENS = Number(tokensArg ?? 200);

/** Keeps what is written; bytes are counted after a frame's timing, so encoding is not charged to either side. */
class CountingTerminal {
	bytes = 0;
	writes = 0;
	pending = [];
	columns = 120;
	rows = 40;
	kittyProtocolActive = false;
	start() {}
	stop() {}
	async drainInput() {}
	write(data) {
		this.pending.push(data);
		this.writes++;
	}
	count() {
		for (const data of this.pending) this.bytes += Buffer.byteLength(data);
		this.pending = [];
	}
	moveBy() {}
	hideCursor() {}
	showCursor() {}
	clearLine() {}
	clearFromCursor() {}
	clearScreen() {}
	setTitle() {}
	setProgress() {}
}

const id = (s) => s;
const theme = {
	heading: id,
	link: id,
	linkUrl: id,
	code: id,
	codeBlock: id,
	codeBlockBorder: id,
	quote: id,
	quoteBorder: id,
	hr: id,
	listBullet: id,
	bold: id,
	italic: id,
	strikethrough: id,
	underline: id,
};

function messageText(i) {
	return [
		`## Step ${i}`,
		"",
		`Looked at **file${i}.ts** and found \`value${i}\`; the fix keeps the *public* names.`,
		"",
		"- read the module",
		"- change the branch",
		"- run the tests",
		"",
		"```ts",
		`export function step${i}(input: number): number {`,
		`\treturn input * ${i} + 1;`,
		"}",
		"```",
	].join("\n");
}

function toolOutput(i) {
	return Array.from({ length: 4 }, (_, k) => `line ${k} of output ${i}: ok`).join("\n");
}

const terminal = new CountingTerminal();
const screen = new tui.TuiMainScreen(terminal);
for (let i = 0; i < MESSAGES; i++) {
	screen.addChild(new tui.Text(`> user prompt number ${i}`, 1, 0));
	screen.addChild(i % 2 ? new tui.Markdown(messageText(i), 1, 0, theme) : new tui.Text(toolOutput(i), 1, 0));
}
let streamText = "Streaming answer:";
const streaming = new tui.Markdown(streamText, 1, 0, theme);
screen.addChild(streaming);
screen.start();

function frame(force) {
	const before = terminal.bytes;
	const started = performance.now();
	screen.renderNow(force);
	const ms = performance.now() - started;
	terminal.count();
	return { ms, bytes: terminal.bytes - before };
}

const first = frame(false);
const fulls = [];
for (let i = 0; i < 5; i++) fulls.push(frame(true));
const appends = [];
for (let i = 0; i < TOKENS; i++) {
	// A paragraph break every 40 tokens, as models write.
	streamText += i % 40 === 39 ? `\n\ntoken${i}` : ` token${i}`;
	streaming.setText(streamText);
	appends.push(frame(false));
}
screen.stop();
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log(
	JSON.stringify({
		firstMs: first.ms,
		firstBytes: first.bytes,
		fullMs: median(fulls.map((f) => f.ms)),
		fullBytes: median(fulls.map((f) => f.bytes)),
		appendMs: median(appends.map((f) => f.ms)),
		appendBytes: median(appends.map((f) => f.bytes)),
	}),
);
process.exit(0);
