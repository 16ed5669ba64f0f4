/**
 * The local bug report (`/bug [description]`): what pi 0.87.1's report collects, minus the upload and the model
 * summary — `report.json` (id, time, the description, version/runtime/platform/terminal facts, the names of the
 * `PI_*` variables set, the session's id and message count, the model and its provider without keys, the thinking
 * level, loaded extensions and their errors, global and project settings with secrets redacted),
 * `diagnostics.json` (failed or aborted assistant turns: which model, stop reason, error message; no content)
 * and `session.jsonl` (the active branch, redacted the same way). Written as `pi-bug-report-<id>.zip` in the working directory.
 */
import { join } from "node:path";
import type { Model } from "../../../ai/index.ts";
import type { SessionManager } from "../../../session/index.ts";
import { os, PI_COMPAT_VERSION, uuidv7, VERSION, writeFileSync } from "../../../util/index.ts";
import { redactJson, redactSettings, redactUrl } from "./redact.ts";
import { branchJsonl } from "./session-jsonl.ts";
import { zipArchive } from "./zip.ts";

export const BUG_REPORT_ENTRY_TYPE = "pi.bug-report";
const SCHEMA_VERSION = 1;

export interface BugReportInput {
	description?: string;
	manager: SessionManager;
	messageCount: number;
	model?: Model;
	thinkingLevel?: string;
	extensions: readonly { path: string }[];
	extensionErrors: readonly string[];
	globalSettings: Record<string, unknown>;
	projectSettings: Record<string, unknown>;
}

export interface BugReport {
	id: string;
	/** The archive's files, in order. */
	files: { name: string; data: string }[];
}

function environment() {
	const env = (name: string) => process.env[name] || null;
	return {
		version: VERSION,
		piCompatVersion: PI_COMPAT_VERSION,
		runtime: process.versions.bun ? `bun/${process.versions.bun}` : `node/${process.version}`,
		platform: process.platform,
		arch: process.arch,
		osRelease: os().release(),
		osVersion: os().version(),
		shell: process.env.SHELL?.split(/[\\/]/).pop() || null,
		terminal: {
			term: env("TERM"),
			program: env("TERM_PROGRAM"),
			programVersion: env("TERM_PROGRAM_VERSION"),
			colorterm: env("COLORTERM"),
			tmux: Boolean(process.env.TMUX),
			ssh: Boolean(process.env.SSH_CONNECTION || process.env.SSH_CLIENT || process.env.SSH_TTY),
			ci: Boolean(process.env.CI),
		},
		// Only the names: values stay on the machine.
		piEnvironmentVariables: Object.keys(process.env)
			.filter((name) => name.startsWith("PI_"))
			.sort(),
	};
}

function describeModel(model: Model) {
	return {
		provider: model.provider,
		id: model.id,
		name: model.name,
		api: model.api,
		baseUrl: redactUrl(model.baseUrl),
		reasoning: model.reasoning,
		input: model.input,
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens,
		compat: "compat" in model && model.compat ? redactJson(model.compat) : null,
		headerNames: Object.keys(model.headers ?? {}).sort(),
	};
}

/** Failed assistant turns, without any conversation content. */
function diagnostics(manager: SessionManager) {
	const entries = manager.getEntries();
	const assistant: unknown[] = [];
	let assistantMessageCount = 0;
	for (const entry of entries) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		assistantMessageCount++;
		const message = entry.message;
		if (message.stopReason !== "error" && message.stopReason !== "aborted" && !message.errorMessage) continue;
		assistant.push({
			entryId: entry.id,
			timestamp: entry.timestamp,
			provider: message.provider,
			model: message.model,
			api: message.api,
			stopReason: message.stopReason,
			...(message.errorMessage === undefined ? {} : { errorMessage: message.errorMessage }),
		});
	}
	return {
		schemaVersion: SCHEMA_VERSION,
		sessionId: manager.getSessionId(),
		entryCount: entries.length,
		assistantMessageCount,
		assistant,
	};
}

export function buildBugReport(input: BugReportInput): BugReport {
	const id = uuidv7();
	const report = {
		schemaVersion: SCHEMA_VERSION,
		id,
		createdAt: new Date().toISOString(),
		hint: input.description?.trim() || null,
		environment: environment(),
		session: {
			id: input.manager.getSessionId(),
			included: true,
			summaryIncluded: false,
			messageCount: input.messageCount,
			cwd: input.manager.getCwd(),
		},
		model: input.model ? describeModel(input.model) : null,
		thinkingLevel: input.thinkingLevel ?? null,
		extensions: input.extensions.map((e) => ({ path: e.path })),
		extensionErrors: input.extensionErrors.map((line) => redactUrl(line)),
		settings: { global: redactSettings(input.globalSettings), project: redactSettings(input.projectSettings) },
	};
	const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
	return {
		id,
		files: [
			{ name: "report.json", data: json(report) },
			{ name: "diagnostics.json", data: json(diagnostics(input.manager)) },
			{ name: "session.jsonl", data: branchJsonl(input.manager, redactJson) },
		],
	};
}

/** Writes the report's archive into `dir`; returns its path. */
export function writeBugReport(report: BugReport, dir: string): string {
	const path = join(dir, `pi-bug-report-${report.id}.zip`);
	writeFileSync(path, zipArchive(report.files));
	return path;
}
