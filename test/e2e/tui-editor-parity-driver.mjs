/**
 * Plays scripted key sequences into a pi-tui module's Editor, Input, SelectList and SettingsList and records what
 * each shows after every step. Plain JavaScript so the same code runs under Node against pi-tui 0.87.1 and under
 * Bun against ours (tui-editor-parity.test.ts compares the two).
 */

const MARKER = "\x1b_pi:c\x07";
const plain = (s) => s;
const selectTheme = {
	selectedPrefix: plain,
	selectedText: (s) => `\x1b[1m${s}\x1b[22m`,
	description: plain,
	scrollInfo: plain,
	noMatch: plain,
};

/** A provider with fixed answers, identical in both runs. */
function staticProvider() {
	const commands = ["help", "hello", "history", "model", "settings", "skill:review", "quit"];
	const files = ["src/", "src/main.ts", "README.md", "package.json", "docs/guide.md"];
	return {
		triggerCharacters: ["@"],
		async getSuggestions(lines, line, col) {
			const before = (lines[line] ?? "").slice(0, col);
			const slash = /^\/(\S*)$/.exec(before);
			if (slash) {
				const items = commands
					.filter((c) => c.startsWith(slash[1]))
					.map((c) => ({ value: c, label: c, description: `The ${c} command, described at some length` }));
				return items.length ? { items, prefix: before } : null;
			}
			const at = /(?:^|\s)@(\S*)$/.exec(before);
			if (at) {
				const items = files.filter((f) => f.includes(at[1])).map((f) => ({ value: `@${f}`, label: f }));
				return items.length ? { items, prefix: `@${at[1]}` } : null;
			}
			const word = /(\S+)$/.exec(before);
			if (word) {
				const items = files.filter((f) => f.startsWith(word[1])).map((f) => ({ value: f, label: f }));
				return items.length ? { items, prefix: word[1] } : null;
			}
			return null;
		},
		applyCompletion(lines, line, col, item, prefix) {
			const text = lines[line] ?? "";
			const start = col - prefix.length;
			const value = prefix.startsWith("/") ? `/${item.value} ` : item.value;
			const next = [...lines];
			next[line] = text.slice(0, start) + value + text.slice(col);
			return { lines: next, cursorLine: line, cursorCol: start + value.length };
		},
	};
}

function cursorOf(tui, lines) {
	for (let row = 0; row < lines.length; row++) {
		const idx = lines[row].indexOf(MARKER);
		if (idx >= 0) return { row, col: tui.visibleWidth(lines[row].slice(0, idx)) };
	}
	return null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function makeComponent(tui, script, stub, log) {
	const { kind, options = {} } = script;
	if (kind === "editor") {
		const editor = new tui.Editor(stub, { borderColor: plain, selectList: selectTheme }, options);
		editor.focused = true;
		editor.onSubmit = (text) => log.push(`submit:${JSON.stringify(text)}`);
		if (script.provider) editor.setAutocompleteProvider(staticProvider());
		if (script.combined) {
			const { commands, basePath } = script.combined;
			editor.setAutocompleteProvider(new tui.CombinedAutocompleteProvider(commands, basePath));
		}
		for (const entry of script.history ?? []) editor.addToHistory(entry);
		if (script.disableSubmit) editor.disableSubmit = true;
		return {
			component: editor,
			state: () => ({
				text: editor.getText(),
				expanded: editor.getExpandedText(),
				cursor: editor.getCursor(),
				autocomplete: editor.isShowingAutocomplete(),
			}),
		};
	}
	if (kind === "loader") {
		const Ctor = script.cancellable ? tui.CancellableLoader : tui.Loader;
		const loader = new Ctor(
			stub,
			(s) => `<${s}>`,
			(s) => `[${s}]`,
			options.message,
			options.indicator,
		);
		loader.stop();
		if (script.cancellable) loader.onAbort = () => log.push("abort");
		return {
			component: loader,
			state: () => ({ aborted: script.cancellable ? loader.aborted : null }),
			dispose: () => loader.stop(),
		};
	}
	if (kind === "input") {
		const input = new tui.Input(options);
		input.focused = true;
		input.onSubmit = (value) => log.push(`submit:${JSON.stringify(value)}`);
		input.onEscape = () => log.push("escape");
		return { component: input, state: () => ({ value: input.getValue() }) };
	}
	if (kind === "select") {
		const list = new tui.SelectList(script.items, script.maxVisible ?? 5, selectTheme, options);
		list.onSelect = (item) => log.push(`select:${item.value}`);
		list.onCancel = () => log.push("cancel");
		list.onSelectionChange = (item) => log.push(`change:${item.value}`);
		if (script.filter !== undefined) list.setFilter(script.filter);
		return { component: list, state: () => ({ selected: list.getSelectedItem()?.value ?? null }) };
	}
	const theme = {
		label: (t, sel) => (sel ? `\x1b[1m${t}\x1b[22m` : t),
		value: (t, sel) => (sel ? `\x1b[4m${t}\x1b[24m` : t),
		description: plain,
		cursor: "→ ",
		hint: plain,
	};
	const items = script.items.map((item) =>
		item.submenu
			? {
					...item,
					submenu: (current, done) => {
						const list = new tui.SelectList(
							item.submenu.map((v) => ({ value: v, label: v })),
							5,
							selectTheme,
						);
						list.setSelectedIndex(Math.max(0, item.submenu.indexOf(current)));
						list.onSelect = (picked) => done(picked.value);
						list.onCancel = () => done();
						return list;
					},
				}
			: { ...item },
	);
	const settings = new tui.SettingsList(
		items,
		script.maxVisible ?? 5,
		theme,
		(id, value) => log.push(`change:${id}=${value}`),
		() => log.push("cancel"),
		options,
	);
	return { component: settings, state: () => ({ values: items.map((i) => i.currentValue) }) };
}

/** Run every script at every width; returns one record list per (script, width). */
export async function runScripts(tui, scripts) {
	const out = [];
	for (const script of scripts) {
		for (const width of script.widths) {
			const stub = { requestRender() {}, terminal: { rows: script.rows ?? 24, columns: width } };
			const log = [];
			const { component, state, dispose } = makeComponent(tui, script, stub, log);
			const records = [];
			const snap = (step) => {
				const lines = component.render(width);
				records.push({ step, lines, cursorMark: cursorOf(tui, lines), ...state(), log: [...log] });
			};
			snap("start");
			for (const step of script.steps) {
				if (typeof step === "string") component.handleInput(step);
				else if (step.wait !== undefined) await sleep(step.wait);
				else if (step.setText !== undefined) component.setText(step.setText);
				else if (step.insert !== undefined) component.insertTextAtCursor(step.insert);
				else if (step.type !== undefined) for (const ch of [...step.type]) component.handleInput(ch);
				else if (step.message !== undefined) component.setMessage(step.message);
				else if (step.indicator !== undefined) {
					component.setIndicator(step.indicator);
					component.stop();
				}
				await sleep(0);
				snap(step);
			}
			dispose?.();
			out.push({ name: script.name, width, records });
		}
	}
	return out;
}
