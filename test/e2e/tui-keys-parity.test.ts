/**
 * Key decoding parity with pi-tui 0.87.1: a generated corpus of input sequences (every key × modifier in the kitty,
 * modifyOtherKeys and legacy encodings, plus odd inputs) goes through pi-tui under Node (one process) and through
 * ours, with the kitty protocol inactive and active. parseKey, matchesKey against every key id, isKeyRelease,
 * isKeyRepeat and decodeKittyPrintable must give the same answers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
	decodeKittyPrintable,
	isKeyRelease,
	isKeyRepeat,
	KeybindingsManager,
	matchesKey,
	parseKey,
	setKittyProtocolActive,
	TUI_KEYBINDINGS,
} from "../../src/tui/index.ts";
import { keyCorpus, keyIds } from "../support/key-corpus.ts";
import { piTuiReference } from "../support/pi-tui-reference.ts";

/** Per sequence: parseKey, indices of matching key ids, isKeyRelease, isKeyRepeat, decodeKittyPrintable. */
type Row = [string | null, string, boolean, boolean, string | null];
type Answers = { inactive: Row[]; active: Row[] };

// The same evaluation, as source for pi's side and as a function for ours.
const EVALUATE = `
const rows = (kitty) => {
	api.setKittyProtocolActive(kitty);
	const out = input.sequences.map((seq) => {
		const matched = [];
		for (let i = 0; i < input.ids.length; i++) if (api.matchesKey(seq, input.ids[i])) matched.push(i);
		return [api.parseKey(seq) ?? null, matched.join(","), api.isKeyRelease(seq), api.isKeyRepeat(seq), api.decodeKittyPrintable(seq) ?? null];
	});
	api.setKittyProtocolActive(false);
	return out;
};
return { inactive: rows(false), active: rows(true) };`;

const ours = {
	decodeKittyPrintable,
	isKeyRelease,
	isKeyRepeat,
	matchesKey: matchesKey as (data: string, id: string) => boolean,
	parseKey,
	setKittyProtocolActive,
};

// Raw BS means Ctrl+Backspace only in Windows Terminal (WT_SESSION): compare with it unset on both sides.
const savedWtSession = process.env.WT_SESSION;
beforeAll(() => {
	delete process.env.WT_SESSION;
});
afterAll(() => {
	if (savedWtSession !== undefined) process.env.WT_SESSION = savedWtSession;
});

function describeRow(ids: string[], row: Row): string {
	const matched = row[1] ? row[1].split(",").map((i) => ids[Number(i)]) : [];
	return JSON.stringify({ parseKey: row[0], matches: matched, release: row[2], repeat: row[3], printable: row[4] });
}

test("parseKey, matchesKey, isKeyRelease, isKeyRepeat, decodeKittyPrintable agree with pi-tui 0.87.1", async () => {
	const reference = piTuiReference("tui-keys-parity");
	if (!reference) return;
	const input = { sequences: keyCorpus(), ids: keyIds() };
	// pi's node process and ours run side by side.
	const pending = reference.run<Answers>(`const api = tui;${EVALUATE}`, input, { WT_SESSION: undefined });
	const started = performance.now();
	const mine = new Function("api", "input", EVALUATE)(ours, input) as Answers;
	const ourMs = Math.round(performance.now() - started);
	const theirs = await pending;
	// pi's side really ran: most of the corpus are keys.
	expect(theirs.inactive.filter((row) => row[0] !== null).length).toBeGreaterThan(3000);
	const mismatches: string[] = [];
	for (const mode of ["inactive", "active"] as const) {
		input.sequences.forEach((seq, i) => {
			const a = JSON.stringify(theirs[mode][i]);
			const b = JSON.stringify(mine[mode][i]);
			if (a !== b) {
				mismatches.push(
					`kitty ${mode} ${JSON.stringify(seq)}\n  pi:   ${describeRow(input.ids, theirs[mode][i] as Row)}\n  ours: ${describeRow(input.ids, mine[mode][i] as Row)}`,
				);
			}
		});
	}
	console.log(
		`tui-keys-parity: ${input.sequences.length} sequences × ${input.ids.length} key ids × 2 modes (ours: ${ourMs} ms)`,
	);
	expect(mismatches.slice(0, 25).join("\n")).toBe("");
	expect(mismatches.length).toBe(0);
}, 600_000);

const MANAGER_EVALUATE = `
const defaults = Object.fromEntries(Object.entries(api.TUI_KEYBINDINGS).map(([id, d]) => [id, d.defaultKeys]));
const manager = new api.KeybindingsManager(api.TUI_KEYBINDINGS, input.user);
const matches = input.sequences.map((seq) => Object.keys(api.TUI_KEYBINDINGS).filter((id) => manager.matches(seq, id)));
return { defaults, resolved: manager.getResolvedBindings(), conflicts: manager.getConflicts(), matches };`;

test("TUI_KEYBINDINGS defaults and KeybindingsManager agree with pi-tui 0.87.1", async () => {
	const reference = piTuiReference("tui-keybindings-parity");
	if (!reference) return;
	const input = {
		user: {
			"tui.select.up": ["ctrl+p", "ctrl+p", "up"],
			"tui.select.down": "ctrl+p",
			"tui.altScreen.pageUp": [],
			"tui.input.submit": ["ctrl+s", "enter"],
			"app.unknown": "ctrl+x",
		},
		sequences: ["\r", "\x1b", "\x10", "\x1b[5~", "\x1b[A", "\x13", "\x1b[13;2u", "\n", "\x1b[1;6A", "\x1f", "a"],
	};
	const theirs = await reference.run(`const api = tui;${MANAGER_EVALUATE}`, input);
	const mine = new Function("api", "input", MANAGER_EVALUATE)({ KeybindingsManager, TUI_KEYBINDINGS }, input);
	expect(mine).toEqual(theirs);
}, 120_000);
