/**
 * Issue 23 item 3, `read`: the compiled binary is told by the mock LLM to read a FIFO nobody writes, /dev/zero, a
 * folder, a symlink loop, a 5 GB sparse file, random bytes, Latin-1 and UTF-16 text. The tool result the model gets
 * is a clear one within 1 s, the binary's peak RSS grows by less than 64 MB, and afterwards it holds none of those
 * files open (nothing left reading: a blocked open of the FIFO would show as an open descriptor or no result).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ensureBinary } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startToolAgent, type ToolAgent } from "./tool-agent.ts";
import { makeReadCases, openFilesUnder, type ReadCase } from "./tool-fixtures.ts";

/** What the model must be told for each target (a substring of the tool result) and whether it is an error. */
const EXPECTED: Record<string, [string, boolean]> = {
	fifo: ["Not a regular file: fifo", true],
	"/dev/zero": ["Not a regular file: /dev/zero", true],
	folder: ["Is a directory: folder. Use ls to list its contents.", true],
	"loop-a": ["Symbolic link loop (too many levels of symbolic links): loop-a (ELOOP)", true],
	"sparse.img": ["Binary file, 5368709120 bytes: sparse.img (contents not shown", false],
	"random.bin": ["Binary file, 1048576 bytes: random.bin (contents not shown", false],
	"latin1.txt": ["café naïve\nsecond line\n", false],
	"utf16.txt": ["first line\r\nsecond line\r\n", false],
};

let agent: ToolAgent;
let cases: ReadCase[];
let dir: string;

beforeAll(async () => {
	dir = makeTempDir("pi-rel-read-");
	cases = makeReadCases(dir);
	agent = await startToolAgent([ensureBinary()], { cwd: dir });
}, 30_000);
afterAll(() => agent?.stop());

describe("read of hostile files through the binary", () => {
	test("every target gets a clear result within 1 s, under 64 MB of RSS growth, nothing left open", async () => {
		if (process.platform !== "linux") return console.log("skipped: RSS and open files are read from /proc");
		for (const c of cases) {
			const [message, isError] = EXPECTED[c.path] ?? ["", false];
			const outcome = await agent.call({ name: "read", arguments: { path: c.path } }, { timeoutMs: 5_000 });
			expect({ case: c.name, text: outcome.text.includes(message) ? message : outcome.text }).toEqual({
				case: c.name,
				text: message,
			});
			expect({ case: c.name, isError: outcome.isError }).toEqual({ case: c.name, isError });
			expect({ case: c.name, fast: outcome.ms < 1_000 }).toEqual({ case: c.name, fast: true });
			expect({ case: c.name, small: outcome.rssGrowthMb < 64 }).toEqual({ case: c.name, small: true });
			expect(openFilesUnder(agent.pid, [dir, "/dev/zero"])).toEqual([]);
		}
	}, 60_000);
});
