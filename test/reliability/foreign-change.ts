/**
 * Another program changes the session file between two turns of an RPC run: appends a line, rewrites a byte in
 * place (same size), saves an edited copy over it (rename, as editors and `sed -i` do) or deletes it. Runs on our
 * binary or on pi 0.87.1 (`command`), so `session-files.test.ts` asserts what ours does and the reliability bench
 * prints both.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { MockLlmServer } from "../support/mock-llm/index.ts";
import { startRpcProcess } from "./rpc-process.ts";

export type ForeignChange = "append" | "rewrite" | "rename" | "delete";

/** The same bytes with the case of the first letter of the last text content flipped: still JSON, same size. */
export function sameSizeEdit(file: string): string {
	const text = readFileSync(file, "utf8");
	const at = text.lastIndexOf('"text":"') + '"text":"'.length;
	const letter = text[at]!;
	const flipped = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
	if (at < '"text":"'.length || flipped === letter) throw new Error(`no text content to edit in ${file}`);
	return `${text.slice(0, at)}${flipped}${text.slice(at + 1)}`;
}

/** Each change: how our refusal names it ("another program <verb> <file>"), and the change itself. */
export const FOREIGN_CHANGES: Record<ForeignChange, { verb: string; apply(file: string): void }> = {
	append: {
		verb: "wrote to",
		apply(file) {
			const line = { type: "custom", id: "0f0f0f0f", parentId: null, timestamp: new Date().toISOString() };
			appendFileSync(file, `${JSON.stringify({ ...line, customType: "other-process" })}\n`);
		},
	},
	rewrite: {
		verb: "rewrote",
		apply(file) {
			// Past the file system's clock step, so the modification time differs from that of the last write.
			Bun.sleepSync(20);
			writeFileSync(file, sameSizeEdit(file));
		},
	},
	rename: {
		verb: "replaced",
		apply(file) {
			writeFileSync(`${file}.edit`, sameSizeEdit(file));
			renameSync(`${file}.edit`, file);
		},
	},
	delete: { verb: "deleted", apply: (file) => unlinkSync(file) },
};

export interface ForeignChangeResult {
	file: string;
	/** The first turn had written the file before the other program changed it. */
	writtenBefore: boolean;
	/** What was at the path right after the change, and after the second turn and exit (undefined: no file). */
	before: string | undefined;
	after: string | undefined;
	/** The `session_save_failed` events of the second turn. */
	notices: Record<string, any>[];
	/** Lines of stderr saying the session is not saved. */
	stderrLines: string[];
	/** The second turn still reached its answer. */
	answered: boolean;
	/** The second turn's answer is in the file at the path (saved where the user will look). */
	savedAtPath: boolean;
	/** The file at the path starts with a session header (undefined: no file). */
	hasHeader: boolean | undefined;
	exitCode: number | undefined;
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);

export async function foreignChangeCase(
	server: MockLlmServer,
	change: ForeignChange,
	command?: string[],
): Promise<ForeignChangeResult> {
	const pi = startRpcProcess({ mockUrl: server.url, ...(command ? { command } : {}) });
	let exited = false;
	try {
		server.push({ kind: "reply", text: "first answer" });
		pi.send({ id: "p1", type: "prompt", message: "hello" });
		await pi.waitFor((r) => r.type === "agent_end", 15_000);
		pi.send({ id: "s", type: "get_state" });
		const state = await pi.waitFor((r) => r.type === "response" && r.id === "s");
		const file = state.data.sessionFile as string;
		const writtenBefore = existsSync(file);
		FOREIGN_CHANGES[change].apply(file);
		const before = read(file);

		const from = pi.records.length;
		server.push({ kind: "reply", text: "second answer" });
		pi.send({ id: "p2", type: "prompt", message: "again" });
		await pi.waitFor((r) => r.type === "agent_end", 15_000, from);
		// pi sends its session events after agent_end; give them a moment.
		await Bun.sleep(100);
		const turn = pi.records.slice(from);
		pi.end();
		const exitCode = await pi.exit(5_000);
		exited = true;
		const after = read(file);
		return {
			file,
			writtenBefore,
			before,
			after,
			notices: turn.filter((r) => r.type === "session_save_failed"),
			stderrLines: pi
				.stderr()
				.split("\n")
				.filter((line) => /not saved/i.test(line)),
			answered: turn.some((r) => r.type === "message_end" && JSON.stringify(r.message).includes("second answer")),
			savedAtPath: after?.includes("second answer") ?? false,
			hasHeader: after === undefined ? undefined : after.startsWith('{"type":"session"'),
			exitCode,
		};
	} finally {
		// A case that failed part way still ends its process.
		if (!exited) await pi.exit(0);
	}
}
