/**
 * HTML export of a session (`pi --export <file> [out]`, RPC `export_html`): one self-contained page showing the
 * active branch — user and assistant messages, thinking, tool calls and their results (images inline), bash runs,
 * extension messages, compaction and branch summaries, model changes — plus the system prompt and tools when the
 * session is live. Rendered here as static HTML: no scripts, every piece of session text escaped. Paths and error
 * messages follow pi: the default file is `pi-session-<session file name>.html` in the working directory.
 */
import { basename, isAbsolute, resolve } from "node:path";
import { renderSystemMessageUpdate } from "../ai/index.ts";
import type { SessionEntry, SessionHeader, SessionManager } from "../session/index.ts";
import { existsSync, expandHome, writeFileSync } from "../util/index.ts";

export interface HtmlExportInput {
	header: SessionHeader | null;
	entries: readonly SessionEntry[];
	leafId: string | null;
	systemPrompt?: string;
	tools?: readonly { name: string; description?: string }[];
}

export interface HtmlExportOptions {
	/** Where to write; default `pi-session-<session file name>.html`. Relative paths are taken from `cwd`. */
	outputPath?: string;
	cwd: string;
	systemPrompt?: string;
	tools?: readonly { name: string; description?: string }[];
}

/** Writes the live session's page; returns the path as pi reports it (the given path, or the default name). */
export function exportSessionHtml(manager: SessionManager, options: HtmlExportOptions): string {
	const file = manager.getSessionFile();
	if (!file) throw new Error("Cannot export in-memory session to HTML");
	if (!existsSync(file)) throw new Error("Nothing to export yet - start a conversation first");
	const html = renderSessionHtml({
		header: manager.getHeader(),
		entries: manager.getEntries(),
		leafId: manager.getLeafId(),
		...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
		...(options.tools ? { tools: options.tools } : {}),
	});
	return writePage(html, file, options);
}

/** `pi --export`: the page of a session file, without a running session. */
export function exportSessionFileHtml(
	path: string,
	open: (path: string) => SessionManager,
	options: HtmlExportOptions,
): string {
	const input = resolve(options.cwd, expandHome(path));
	if (!existsSync(input)) throw new Error(`File not found: ${input}`);
	const manager = open(input);
	try {
		const html = renderSessionHtml({
			header: manager.getHeader(),
			entries: manager.getEntries(),
			leafId: manager.getLeafId(),
		});
		return writePage(html, input, options);
	} finally {
		manager.close();
	}
}

function writePage(html: string, sessionFile: string, options: HtmlExportOptions): string {
	const outputPath = options.outputPath
		? expandHome(options.outputPath)
		: `pi-session-${basename(sessionFile, ".jsonl")}.html`;
	writeFileSync(isAbsolute(outputPath) ? outputPath : resolve(options.cwd, outputPath), html, "utf8");
	return outputPath;
}

// Rendering ------------------------------------------------------------------------------------------------

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

type Block = { type: string; [key: string]: unknown };

/** The branch root → leaf (all entries in file order when the leaf is unknown). */
function activeBranch(entries: readonly SessionEntry[], leafId: string | null): SessionEntry[] {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const path: SessionEntry[] = [];
	const seen = new Set<string>();
	for (let e = leafId ? byId.get(leafId) : undefined; e && !seen.has(e.id); ) {
		seen.add(e.id);
		path.push(e);
		e = e.parentId ? byId.get(e.parentId) : undefined;
	}
	return path.length > 0 ? path.reverse() : [...entries];
}

function pre(text: string, className = ""): string {
	return `<pre${className ? ` class="${className}"` : ""}>${escapeHtml(text)}</pre>`;
}

function contentHtml(content: unknown): string {
	if (typeof content === "string") return pre(content);
	if (!Array.isArray(content)) return "";
	return (content as Block[])
		.map((block) => {
			if (block.type === "text") return pre(String(block.text ?? ""));
			if (block.type === "image" && typeof block.data === "string") {
				const mime = /^image\/[\w.+-]+$/.test(String(block.mimeType)) ? String(block.mimeType) : "image/png";
				return `<img alt="image" src="data:${mime};base64,${escapeHtml(block.data)}">`;
			}
			if (block.type === "thinking") {
				return `<details class="thinking"><summary>Thinking</summary>${pre(String(block.thinking ?? ""))}</details>`;
			}
			if (block.type === "toolCall") {
				const args = JSON.stringify(block.arguments ?? {}, null, 2);
				return `<div class="call"><span class="tool">${escapeHtml(String(block.name))}</span>${pre(args)}</div>`;
			}
			return "";
		})
		.join("");
}

function card(kind: string, title: string, body: string, note = ""): string {
	const aside = note ? `<span class="note">${escapeHtml(note)}</span>` : "";
	return `<section class="msg ${kind}"><h2>${escapeHtml(title)}${aside}</h2>${body}</section>`;
}

function messageHtml(message: { role: string; [key: string]: unknown }): string {
	switch (message.role) {
		case "user":
			return card("user", "User", contentHtml(message.content));
		case "assistant": {
			const usage = message.usage as { input?: number; output?: number } | undefined;
			const note = [
				`${message.provider}/${message.model}`,
				usage ? `${usage.input ?? 0} in · ${usage.output ?? 0} out` : "",
			];
			const failed =
				message.stopReason === "error" || message.stopReason === "aborted"
					? pre(String(message.errorMessage ?? message.stopReason), "error")
					: "";
			return card("assistant", "Assistant", contentHtml(message.content) + failed, note.filter(Boolean).join(" · "));
		}
		case "toolResult":
			return card(
				message.isError ? "tool error" : "tool",
				`Result: ${message.toolName ?? ""}`,
				contentHtml(message.content),
			);
		case "bashExecution": {
			const exit = message.cancelled ? "cancelled" : `exit ${message.exitCode ?? "?"}`;
			return card("bash", `$ ${message.command}`, pre(String(message.output ?? "")), exit);
		}
		case "custom":
			return message.display === false
				? ""
				: card("custom", String(message.customType ?? "Extension"), contentHtml(message.content));
		case "system": {
			// The prompt's sections (as changed here) and the tools the message adds or removes.
			const tools = [
				...((message.toolsAdded as { name: string }[] | undefined) ?? []).map((t) => `+ tool ${t.name}`),
				...((message.toolsRemoved as { name: string }[] | undefined) ?? []).map((t) => `- tool ${t.name}`),
			];
			const text = [renderSystemMessageUpdate(message as never), ...tools].filter(Boolean).join("\n");
			return card("system", "System", pre(text));
		}
		case "branchSummary":
			return card("summary", "Branch summary", pre(String(message.summary ?? "")));
		case "compactionSummary":
			return card("summary", "Compaction summary", pre(String(message.summary ?? "")));
		default:
			return "";
	}
}

function entryHtml(entry: SessionEntry): string {
	const e = entry as SessionEntry & Record<string, unknown>;
	switch (entry.type) {
		case "message":
			return messageHtml(e.message as { role: string });
		case "compaction":
			return card(
				"summary",
				"Compaction summary",
				pre(String(e.summary ?? "")),
				`${e.tokensBefore ?? "?"} tokens before`,
			);
		case "branch_summary":
			return card("summary", "Branch summary", pre(String(e.summary ?? "")));
		case "custom_message":
			return e.display === false ? "" : card("custom", String(e.customType ?? "Extension"), contentHtml(e.content));
		case "model_change":
			return `<p class="event">Model: ${escapeHtml(`${e.provider}/${e.modelId}`)}</p>`;
		case "thinking_level_change":
			return `<p class="event">Thinking level: ${escapeHtml(String(e.thinkingLevel))}</p>`;
		default:
			return "";
	}
}

const STYLE = `:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#1d2127;--muted:#6b7280;--line:#dfe3e8;--user:#e8f0fe;--tool:#f3f4f6;--err:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--card:#1e2126;--fg:#e6e8eb;--muted:#9aa3ad;--line:#30343b;--user:#1f2a3d;--tool:#23272e;--err:#f97066}}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem}header h1{margin:0 0 .25rem;font-size:1.4rem}header p{margin:0;color:var(--muted)}
.msg{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:1rem 0;padding:.75rem 1rem}
.msg h2{font-size:.85rem;margin:0 0 .5rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.note{float:right;text-transform:none;letter-spacing:0;font-weight:normal}.user{background:var(--user)}.tool,.bash{background:var(--tool)}
pre{white-space:pre-wrap;word-break:break-word;margin:.25rem 0;font:13px/1.45 ui-monospace,monospace}.error,.tool.error h2{color:var(--err)}
.call .tool{font-weight:600;font-family:ui-monospace,monospace}img{max-width:100%}.event{color:var(--muted);font-size:.85rem;margin:.25rem 0}
details{margin:.25rem 0}summary{cursor:pointer;color:var(--muted)}`;

export function renderSessionHtml(input: HtmlExportInput): string {
	const branch = activeBranch(input.entries, input.leafId);
	let name: string | undefined;
	for (const entry of input.entries)
		if (entry.type === "session_info") name = (entry as { name?: string }).name || name;
	const id = input.header?.id ?? "";
	const title = name ?? `pi session ${id}`.trim();
	const facts = [input.header?.cwd, input.header?.timestamp, id].filter(Boolean).map((f) => escapeHtml(String(f)));
	const setup: string[] = [];
	if (input.systemPrompt) {
		setup.push(`<details><summary>System prompt</summary>${pre(input.systemPrompt)}</details>`);
	}
	if (input.tools && input.tools.length > 0) {
		const items = input.tools.map((t) => `<li><b>${escapeHtml(t.name)}</b> ${escapeHtml(t.description ?? "")}</li>`);
		setup.push(`<details><summary>Tools (${input.tools.length})</summary><ul>${items.join("")}</ul></details>`);
	}
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><header><h1>${escapeHtml(title)}</h1><p>${facts.join(" · ")}</p>${setup.join("")}</header>
${branch.map(entryHtml).filter(Boolean).join("\n")}
</main></body></html>
`;
}
