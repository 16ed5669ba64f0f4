/**
 * Issue 23 item 3, `edit`: through the compiled binary, the mock LLM has "beta" replaced by "BETA" in Latin-1,
 * UTF-16 LE/BE (with BOM), CRLF, UTF-8-with-BOM files and a 0755 script: the file afterwards holds exactly the
 * expected bytes (every byte outside the edit unchanged) and keeps its mode. A read-only file is refused with a
 * message saying so and is left as it was (also when pi runs as root, who could write it). A file changed on disk
 * after the model read it is refused with a message telling the model to read it again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startToolAgent, type ToolAgent } from "./tool-agent.ts";
import { makeEditCases } from "./tool-fixtures.ts";

let agent: ToolAgent;
let dir: string;

beforeAll(async () => {
	dir = makeTempDir("pi-rel-edit-");
	agent = await startToolAgent([ensureBinary()], { cwd: dir });
}, 30_000);
afterAll(() => agent?.stop());

const modeOf = (file: string) => statSync(join(dir, file)).mode & 0o7777;
const edit = (path: string, oldText: string, newText: string) =>
	agent.call({ name: "edit", arguments: { path, edits: [{ oldText, newText }] } }, { timeoutMs: 10_000 });

describe("edit keeps every byte outside the edit, and the mode", () => {
	test("Latin-1, UTF-16 LE/BE, CRLF, UTF-8 BOM, a 0755 script, a read-only file", async () => {
		for (const c of makeEditCases(dir)) {
			const outcome = await edit(c.file, "beta", "BETA");
			const bytes = readFileSync(join(dir, c.file));
			if (c.after) {
				expect({ case: c.name, text: outcome.text }).toEqual({
					case: c.name,
					text: `Successfully replaced 1 block(s) in ${c.file}.`,
				});
				expect({ case: c.name, hex: bytes.toString("hex") }).toEqual({ case: c.name, hex: c.after.toString("hex") });
			} else {
				expect(outcome.isError).toBe(true);
				expect(outcome.text).toBe(
					`Could not edit file: ${c.file}. It is read-only (mode 0444); no changes were made. Change its permissions first if it should be edited.`,
				);
				expect(bytes.equals(c.before)).toBe(true);
			}
			expect({ case: c.name, mode: modeOf(c.file).toString(8) }).toEqual({ case: c.name, mode: c.mode.toString(8) });
		}
	}, 30_000);
});

describe("edit of files it cannot load", () => {
	test("a FIFO, a folder and a 5 GB sparse file are refused at once, naming the reason", async () => {
		const refusals: Record<string, string> = {
			folder: "It is a directory; nothing was read or changed.",
			"huge.img": "It is 5.0GB, over the 256.0MB the edit tool loads; change it with bash (sed, a script) instead.",
		};
		Bun.spawnSync(["mkdir", join(dir, "folder")]);
		writeFileSync(join(dir, "huge.img"), "");
		Bun.spawnSync(["truncate", "-s", "5G", join(dir, "huge.img")]);
		if (Bun.spawnSync(["mkfifo", join(dir, "fifo")]).exitCode === 0) {
			refusals.fifo = "It is not a regular file (a FIFO, socket or device); nothing was read or changed.";
		}
		for (const [file, reason] of Object.entries(refusals)) {
			const outcome = await edit(file, "a", "b");
			expect(outcome.text).toBe(`Could not edit file: ${file}. ${reason}`);
			expect(outcome.ms).toBeLessThan(1_000);
			expect(outcome.rssGrowthMb).toBeLessThan(64);
		}
	}, 30_000);
});

describe("edit of a file changed on disk since it was read", () => {
	test("is refused with a message to read it again; after a new read the edit goes through", async () => {
		const file = join(dir, "notes.txt");
		writeFileSync(file, "one\ntwo\nthree\n");
		expect((await agent.call({ name: "read", arguments: { path: "notes.txt" } })).text).toBe("one\ntwo\nthree\n");
		// Our own edits keep the file known: a second edit needs no new read.
		expect((await edit("notes.txt", "one", "ONE")).isError).toBe(false);
		expect((await edit("notes.txt", "two", "TWO")).isError).toBe(false);
		appendFileSync(file, "added by the user\n");
		const refused = await edit("notes.txt", "three", "THREE");
		expect(refused.isError).toBe(true);
		expect(refused.text).toBe(
			"File notes.txt has changed on disk since you last read it. No changes were made: read it again with the read tool, then redo the edit.",
		);
		expect(readFileSync(file, "utf8")).toBe("ONE\nTWO\nthree\nadded by the user\n");
		await agent.call({ name: "read", arguments: { path: "notes.txt" } });
		expect((await edit("notes.txt", "three", "THREE")).isError).toBe(false);
		expect(readFileSync(file, "utf8")).toBe("ONE\nTWO\nTHREE\nadded by the user\n");
	}, 30_000);

	test("a file the model never read is edited as before (no read required)", async () => {
		writeFileSync(join(dir, "unread.txt"), "x = 1\n");
		expect((await edit("unread.txt", "x = 1", "x = 2")).isError).toBe(false);
		expect(readFileSync(join(dir, "unread.txt"), "utf8")).toBe("x = 2\n");
	}, 30_000);
});
