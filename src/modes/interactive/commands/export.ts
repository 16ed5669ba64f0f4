/**
 * Commands that take the session out of the chat: `/export [path]` (an HTML page, or the active branch as JSONL
 * when the path ends in `.jsonl`), `/share` (uploading needs an uploader this build does not configure, so it only
 * says so) and `/bug [description]` (a local, redacted zip of what pi's bug report collects; see bug-report.ts).
 */
import { errorMessage } from "../../../util/index.ts";
import { pathArgument } from "./path-argument.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

async function exportSession(c: CommandContext, args: string): Promise<void> {
	const path = pathArgument(args);
	const manager = c.host.manager;
	try {
		if (path?.endsWith(".jsonl")) {
			const { exportBranchJsonl } = await import("./session-jsonl.ts");
			c.app.chat.showStatus(`Session exported to: ${exportBranchJsonl(manager, path, c.cwd)}`);
			return;
		}
		// The same page RPC `export_html` writes.
		const { exportSessionHtml } = await import("../../export-html.ts");
		const session = c.host.session;
		const written = exportSessionHtml(manager, {
			cwd: c.cwd,
			...(path ? { outputPath: path } : {}),
			...(session
				? {
						systemPrompt: session.systemPrompt,
						tools: session.agent.state.tools.map((t) => ({ name: t.name, description: t.description })),
					}
				: {}),
		});
		c.app.chat.showStatus(`Session exported to: ${written}`);
	} catch (error) {
		c.app.chat.showError(`Failed to export session${path ? ` to ${path}` : ""}: ${errorMessage(error)}`);
	}
}

function share(c: CommandContext): void {
	c.app.chat.showWarning(
		"/share needs a configured uploader and this build has none: nothing was shared (/export writes the session to a file)",
	);
}

async function bug(c: CommandContext, description: string): Promise<void> {
	const { buildBugReport, writeBugReport, BUG_REPORT_ENTRY_TYPE } = await import("./bug-report.ts");
	const session = c.host.session;
	const manager = c.host.manager;
	const state = session?.agent.state;
	const report = buildBugReport({
		...(description ? { description } : {}),
		manager,
		messageCount: session?.messages.length ?? 0,
		...(state?.model ? { model: state.model } : {}),
		...(state ? { thinkingLevel: c.view.thinkingLevel() } : {}),
		extensions: c.extensions.extensions.map((e) => ({ path: e.entry.path })),
		extensionErrors: c.extensions.diagnostics,
		globalSettings: (c.store?.getScope("global") ?? {}) as Record<string, unknown>,
		projectSettings: (c.store?.getScope("project") ?? {}) as Record<string, unknown>,
	});
	let path: string;
	try {
		path = writeBugReport(report, c.cwd);
	} catch (error) {
		c.app.chat.showError(`Failed to write bug report in ${c.cwd}: ${errorMessage(error)}`);
		return;
	}
	manager.appendCustomEntry(BUG_REPORT_ENTRY_TYPE, {
		id: report.id,
		createdAt: new Date().toISOString(),
		hint: description || null,
		sessionIncluded: true,
		summaryIncluded: false,
		delivery: "zip",
		path,
	});
	c.app.chat.showStatus(`Bug report exported to: ${path}\nReport ID: ${report.id}`);
}

export const EXPORT_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "export",
		description: "Export the session (HTML by default, JSONL for a .jsonl path)",
		argumentHint: "[path]",
		run: exportSession,
	},
	{ name: "share", description: "Share the session (needs a configured uploader)", run: share },
	{
		name: "bug",
		description: "Write a local bug report zip (secrets redacted)",
		argumentHint: "[description]",
		run: bug,
	},
];
