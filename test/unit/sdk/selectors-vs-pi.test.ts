/**
 * pi-coding-agent's ThinkingSelectorComponent, ShowImagesSelectorComponent and UserMessageSelectorComponent, constructed as pi's with the same
 * arguments, draw the same lines (dark theme, truecolor, widths 40 and 100) and answer the same keys (moves,
 * search typing, save-as-default, Enter, Escape) with the same callbacks as pi 0.87.1's, run under Node 22 from
 * the conformance cache with pi's app keybindings.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";

/** A function of `lib` ({ Thinking, ShowImages, UserMessages }) returning what is compared. */
const CASES = `(lib) => {
	const out = {};
	const log = [];
	const record = (name) => (value) => log.push(name + ":" + JSON.stringify(value ?? null));
	const draw = (component) => [40, 100].map((w) => component.render(w));
	const keys = { down: "\\x1b[B", up: "\\x1b[A", enter: "\\r", escape: "\\x1b", save: "\\x13" };
	const thinking = () => new lib.Thinking("medium", ["off", "minimal", "low", "medium", "high", "xhigh"],
		record("select"), record("cancel"), record("default"), "low");
	let t = thinking();
	out.thinking = [draw(t)];
	for (const key of ["down", "down", "up", "save"]) { t.handleInput(keys[key]); out.thinking.push(draw(t)); }
	for (const ch of "hi") { t.handleInput(ch); out.thinking.push(draw(t)); }
	t.handleInput(keys.enter);
	t = thinking();
	t.handleInput(keys.escape);
	const plain = new lib.Thinking("off", ["off", "high"], record("select2"), record("cancel2"));
	plain.handleInput(keys.save);
	out.plain = draw(plain);
	out.selected = plain.getSelectList().getSelectedItem()?.value ?? null;
	for (const current of [true, false]) {
		const s = new lib.ShowImages(current, record("images"), record("imagesCancel"));
		out["images" + current] = draw(s);
		s.getSelectList().handleInput(keys.down);
		s.getSelectList().handleInput(keys.enter);
		s.getSelectList().handleInput(keys.escape);
	}
	const messages = [{ id: "a", text: "first\\nline" }, { id: "b", text: "a much longer second message that will not fit in forty columns" }, { id: "c", text: "third" }];
	const fork = new lib.UserMessages(messages, record("fork"), record("forkCancel"), "b");
	out.fork = [draw(fork)];
	for (const key of ["up", "up", "down"]) { fork.getMessageList().handleInput(keys[key]); out.fork.push(draw(fork)); }
	fork.getMessageList().handleInput(keys.enter);
	fork.getMessageList().handleInput(keys.escape);
	const many = new lib.UserMessages(Array.from({ length: 14 }, (_, i) => ({ id: "m" + i, text: "message " + i })), record("many"), record("manyCancel"));
	out.many = draw(many);
	out.log = log;
	return out;
}`;

const ENV = { COLORTERM: "truecolor" };

function piSide(node: string, modules: string): unknown {
	const root = mkdtempSync(join(tmpdir(), "pi-selectors-"));
	try {
		const script = join(root, "main.mjs");
		writeFileSync(
			script,
			`import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
const modules = ${JSON.stringify(modules)};
const dist = join(modules, "@earendil-works", "pi-coding-agent", "dist");
const load = (path) => import(pathToFileURL(path).href);
const themeModule = await load(join(dist, "modes", "interactive", "theme", "theme.js"));
const { KeybindingsManager } = await load(join(dist, "core", "keybindings.js"));
const tui = await load(join(modules, "@earendil-works", "pi-tui", "dist", "index.js"));
const agent = await load(join(dist, "index.js"));
themeModule.initTheme("dark");
tui.setKeybindings(new KeybindingsManager());
const cases = ${CASES};
writeFileSync(${JSON.stringify(join(root, "out.json"))}, JSON.stringify(cases({ Thinking: agent.ThinkingSelectorComponent, ShowImages: agent.ShowImagesSelectorComponent, UserMessages: agent.UserMessageSelectorComponent })));
process.exit(0);
`,
		);
		const run = Bun.spawnSync([node, script], {
			env: {
				...process.env,
				...ENV,
				HOME: root,
				PI_CODING_AGENT_DIR: join(root, "agent"),
				HTTP_PROXY: "http://127.0.0.1:9",
				HTTPS_PROXY: "http://127.0.0.1:9",
				NO_PROXY: "127.0.0.1,localhost",
			},
			stdout: "pipe",
			stderr: "pipe",
		});
		if (run.exitCode !== 0) throw new Error(`pi side failed: ${run.stderr.toString()}`);
		return JSON.parse(readFileSync(join(root, "out.json"), "utf8"));
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

test("the thinking, show-images and fork selectors draw and answer keys as pi 0.87.1's", async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		console.warn(`selectors side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
		return;
	}
	const saved = process.env.COLORTERM;
	process.env.COLORTERM = ENV.COLORTERM;
	try {
		const [resources, tui, interactive, sdk] = await Promise.all([
			import("../../../src/resources/index.ts"),
			import("../../../src/tui/index.ts"),
			import("../../../src/modes/interactive/index.ts"),
			import("../../../src/sdk/pi-coding-agent.ts"),
		]);
		await resources.loadChalk();
		resources.initTheme("dark");
		tui.setKeybindings(new tui.KeybindingsManager(interactive.APP_KEYBINDINGS));
		const cases = new Function(`return ${CASES}`)() as (lib: unknown) => unknown;
		const ours = cases({
			Thinking: sdk.ThinkingSelectorComponent,
			ShowImages: sdk.ShowImagesSelectorComponent,
			UserMessages: sdk.UserMessageSelectorComponent,
		});
		expect((ours as { log: string[] }).log.length).toBeGreaterThan(4);
		expect(ours).toEqual(piSide(pi.node, pi.modules));
	} finally {
		if (saved === undefined) delete process.env.COLORTERM;
		else process.env.COLORTERM = saved;
	}
}, 60_000);
