/**
 * Deterministic pi session files (JSONL v3, a linear chain of entries) for the interactive benchmark: user prompts,
 * assistant replies in markdown with code blocks, thinking, tool calls (read, bash, edit, write) and their results
 * (file contents, command output, edit diffs in pi's `+NN line` form), an occasional model or thinking-level change,
 * and, when asked, a compaction every `compactEvery` entries (as a long-running session has). The same options always
 * give the same bytes: a seeded generator, fixed timestamps and ids.
 */
import { closeSync, openSync, writeSync } from "node:fs";

export interface SessionSpec {
	/** The session's working directory (pi refuses a session whose cwd does not exist). */
	cwd: string;
	/** Stop after this many message entries (user, assistant, tool result). */
	messages?: number;
	/** Stop after this many entries of any kind (the header not counted). */
	entries?: number;
	/** Stop once the file holds at least this many bytes. */
	bytes?: number;
	/** A compaction entry every this many entries, keeping the last `compactKeep` entries before it (default: none). */
	compactEvery?: number;
	compactKeep?: number;
	/** Provider and model named in assistant messages (so the session's model is one the benchmark configures). */
	provider: string;
	model: string;
	/** The text of a last assistant message, so a driver can see on screen that the whole transcript is shown. */
	endMarker?: string;
}

export interface SessionStats {
	bytes: number;
	entries: number;
	messages: number;
	compactions: number;
}

const WORDS = (
	"the a function const return import export await async class interface type value error file path session " +
	"entry parse buffer line index tree node leaf branch compaction summary token model render frame editor footer " +
	"terminal width column résumé naïve stream chunk cache"
).split(" ");
const FILES = ["src/tui/editor.ts", "src/session/load.ts", "src/agent/loop.ts", "README.md", "package.json"];
const COMMANDS = ["npm test", "git status --short", "ls -la src", "bun test test/unit/editor.test.ts", "rg TODO src"];

/** A small linear congruential generator: deterministic and fast. */
export function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1103515245) + 12345) >>> 0;
		return (state >>> 1) / 0x80000000;
	};
}

export function entryId(i: number): string {
	return (Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, "0");
}

class Text {
	constructor(readonly rand01: () => number) {}
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.rand01() * items.length)] as T;
	}
	words(bytes: number): string {
		const out: string[] = [];
		let n = 0;
		while (n < bytes) {
			const word = this.pick(WORDS);
			out.push(word);
			n += word.length + 1;
		}
		return out.join(" ");
	}
	code(lines: number): string {
		const out: string[] = [];
		for (let i = 0; i < lines; i++) {
			const indent = "\t".repeat(Math.floor(this.rand01() * 3));
			out.push(`${indent}const ${this.pick(WORDS)}${i} = ${this.pick(WORDS)}(${JSON.stringify(this.words(12))});`);
		}
		return out.join("\n");
	}
	/** An assistant reply in markdown: a paragraph, a list, a fenced code block, sometimes a heading or a table. */
	markdown(bytes: number): string {
		const parts = [`${this.words(bytes * 0.4)} **${this.pick(WORDS)}** and \`${this.pick(WORDS)}()\`.`];
		if (this.rand01() < 0.3) parts.unshift(`## ${this.words(24)}`);
		parts.push(Array.from({ length: 3 }, () => `- ${this.words(30)}`).join("\n"));
		if (this.rand01() < 0.6) parts.push(`\`\`\`ts\n${this.code(Math.max(2, Math.floor(bytes / 120)))}\n\`\`\``);
		if (this.rand01() < 0.15) parts.push("| name | value |\n|---|---|\n| a | 1 |\n| b | 2 |");
		parts.push(this.words(bytes * 0.2));
		return parts.join("\n\n");
	}
	diff(lines: number): string {
		const out: string[] = [];
		const first = 10 + Math.floor(this.rand01() * 200);
		for (let i = 0; i < lines; i++) {
			const n = String(first + i).padStart(3, " ");
			const mark = i % 4 === 1 ? "-" : i % 4 === 2 ? "+" : " ";
			out.push(`${mark}${n} ${this.words(40)}`);
		}
		return out.join("\n");
	}
}

const USAGE = {
	input: 1200,
	output: 300,
	cacheRead: 50000,
	cacheWrite: 0,
	totalTokens: 51500,
	cost: { input: 0.0036, output: 0.0045, cacheRead: 0.015, cacheWrite: 0, total: 0.0231 },
};

interface Call {
	id: string;
	name: string;
	arguments: Record<string, unknown>;
}

/** One tool call and its result content/details, by tool. */
function toolCall(text: Text, n: number): { call: Call; result: string; details?: unknown } {
	const id = `toolu_${String(n).padStart(6, "0")}`;
	const kind = n % 4;
	if (kind === 0) {
		const path = text.pick(FILES);
		const big = text.pick([0, 0, 0, 1]) === 1;
		return { call: { id, name: "read", arguments: { path } }, result: text.code(big ? 120 : 25) };
	}
	if (kind === 1) {
		const command = text.pick(COMMANDS);
		return { call: { id, name: "bash", arguments: { command } }, result: `${text.words(300)}\n${text.words(200)}` };
	}
	if (kind === 2) {
		const path = text.pick(FILES);
		const edits = [{ oldText: text.words(40), newText: text.words(50) }];
		return {
			call: { id, name: "edit", arguments: { path, edits } },
			result: `Successfully replaced 1 block(s) in ${path}.`,
			details: { diff: text.diff(8), firstChangedLine: 12 },
		};
	}
	const path = `notes/${text.pick(WORDS)}.md`;
	return {
		call: { id, name: "write", arguments: { path, content: text.words(400) } },
		result: `Successfully wrote 400 bytes to ${path}`,
	};
}

/** Writes the session to `path` and says what it holds. */
export function writeSession(path: string, spec: SessionSpec): SessionStats {
	const text = new Text(seeded(20_251_127));
	const fd = openSync(path, "w");
	const stats: SessionStats = { bytes: 0, entries: 0, messages: 0, compactions: 0 };
	let batch: string[] = [];
	const flush = () => {
		const buffer = Buffer.from(batch.join(""), "utf8");
		writeSync(fd, buffer);
		stats.bytes += buffer.length;
		batch = [];
	};
	let pendingBytes = 0;
	const put = (value: object) => {
		const line = `${JSON.stringify(value)}\n`;
		batch.push(line);
		pendingBytes += line.length;
		if (batch.length >= 2000) {
			flush();
			pendingBytes = 0;
		}
	};
	const start = Date.UTC(2026, 0, 5, 9, 0, 0);
	put({
		type: "session",
		version: 3,
		id: "019b8a00-0000-7000-8000-000000000001",
		timestamp: new Date(start).toISOString(),
		cwd: spec.cwd,
	});
	const reserve = spec.endMarker === undefined ? 0 : 1; // the marker message is one more entry and message
	const done = () =>
		(spec.messages !== undefined && stats.messages >= spec.messages - reserve) ||
		(spec.entries !== undefined && stats.entries >= spec.entries - reserve) ||
		(spec.bytes !== undefined && stats.bytes + pendingBytes >= spec.bytes);
	/** How many more entries a count limit allows (a tool call needs room for its results). */
	const room = () =>
		Math.min(
			spec.messages === undefined ? Number.POSITIVE_INFINITY : spec.messages - reserve - stats.messages,
			spec.entries === undefined ? Number.POSITIVE_INFINITY : spec.entries - reserve - stats.entries,
		);
	let parentId: string | null = null;
	let calls = 0;
	let pending: { call: Call; result: string; details?: unknown }[] = [];
	while (!done() || pending.length > 0) {
		const i = stats.entries;
		const id = entryId(i + 1);
		const ts = start + i * 1500;
		const base = { id, parentId, timestamp: new Date(ts).toISOString() };
		const assistant = (content: unknown[], stopReason: string) => ({
			role: "assistant",
			content,
			api: "anthropic-messages",
			provider: spec.provider,
			model: spec.model,
			usage: USAGE,
			stopReason,
			timestamp: ts,
		});
		if (spec.compactEvery && i > 0 && i % spec.compactEvery === 0 && pending.length === 0) {
			const keep = Math.min(spec.compactKeep ?? 200, i - 1);
			put({
				type: "compaction",
				...base,
				summary: `## Goal\n${text.words(600)}\n\n## Progress\n- ${text.words(300)}\n- ${text.words(300)}`,
				firstKeptEntryId: entryId(i + 1 - keep),
				tokensBefore: 180_000,
				details: { readFiles: FILES.slice(0, 3), modifiedFiles: FILES.slice(0, 1) },
			});
			stats.compactions++;
		} else if (i % 1009 === 700 && pending.length === 0) {
			put({ type: "thinking_level_change", ...base, thinkingLevel: text.pick(["low", "medium", "high"]) });
		} else if (i % 2503 === 1800 && pending.length === 0) {
			put({ type: "model_change", ...base, provider: spec.provider, modelId: spec.model });
		} else if (pending.length > 0) {
			const { call, result, details } = pending.shift() as (typeof pending)[number];
			const message = {
				role: "toolResult",
				toolCallId: call.id,
				toolName: call.name,
				content: [{ type: "text", text: result }],
				...(details ? { details } : {}),
				isError: false,
				timestamp: ts,
			};
			put({ type: "message", ...base, message });
			stats.messages++;
		} else if (stats.messages % 7 === 0) {
			const content = text.rand01() < 0.2 ? `${text.words(200)}\n\n\`\`\`\n${text.code(4)}\n\`\`\`` : text.words(160);
			put({ type: "message", ...base, message: { role: "user", content, timestamp: ts } });
			stats.messages++;
		} else if (stats.messages % 7 === 6 || room() < 2) {
			const content: unknown[] = [{ type: "text", text: text.markdown(900) }];
			put({ type: "message", ...base, message: assistant(content, "stop") });
			stats.messages++;
		} else {
			const n = Math.min(1 + Math.floor(text.rand01() * 2), room() - 1); // the results must fit too
			pending = Array.from({ length: n }, () => toolCall(text, ++calls));
			const content: unknown[] = [];
			if (calls % 5 === 0) content.push({ type: "thinking", thinking: text.words(300), thinkingSignature: "sig" });
			content.push({ type: "text", text: text.words(120) });
			for (const p of pending) content.push({ type: "toolCall", ...p.call });
			put({ type: "message", ...base, message: assistant(content, "toolUse") });
			stats.messages++;
		}
		stats.entries++;
		parentId = id;
	}
	if (spec.endMarker !== undefined) {
		const ts = start + stats.entries * 1500;
		const message = {
			role: "assistant",
			content: [{ type: "text", text: spec.endMarker }],
			api: "anthropic-messages",
			provider: spec.provider,
			model: spec.model,
			usage: USAGE,
			stopReason: "stop",
			timestamp: ts,
		};
		put({ type: "message", id: entryId(stats.entries + 1), parentId, timestamp: new Date(ts).toISOString(), message });
		stats.entries++;
		stats.messages++;
	}
	flush();
	closeSync(fd);
	return stats;
}

/**
 * A streamed reply of exactly `chars` characters in markdown (paragraphs, lists, code blocks), ending with `marker`
 * on its own line so a driver can see on screen that the whole reply has arrived.
 */
export function replyMarkdown(chars: number, marker: string): string {
	const text = new Text(seeded(7));
	const parts: string[] = [];
	let size = 0;
	while (size < chars) {
		const part = text.markdown(700);
		parts.push(part);
		size += part.length + 2;
	}
	const tail = `\n\n${marker}`;
	return `${parts
		.join("\n\n")
		.slice(0, chars - tail.length)
		.trimEnd()}${tail}`.padEnd(chars, ".");
}
