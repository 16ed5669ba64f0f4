/**
 * What the model last saw of each file, so `edit` can refuse to change a file that changed on disk since it was
 * read (by the user, a formatter, another program): its edit would be based on text that is no longer there. The
 * `read` tool records a file's stamp (modification time in nanoseconds, size, inode) when it reads it; `edit` and
 * `write` record the stamp of what they wrote. `edit` compares the stamp on disk with the recorded one and refuses
 * on a difference. A file that was never read in this session is not checked (the model may edit from a grep hit).
 * One tracker per tool set, i.e. per session; pi 0.87.1 has no such check.
 */
import { resolve } from "node:path";
import { fsPromises, realpathSync } from "../util/index.ts";

/** A file's identity and version, comparable as a string; undefined when it cannot be read. */
export type FileStamp = (absolutePath: string) => Promise<string | undefined>;

export const localFileStamp: FileStamp = async (path) => {
	try {
		const info = await fsPromises().stat(path, { bigint: true });
		return `${info.mtimeNs}:${info.size}:${info.ino}`;
	} catch {
		// Gone or unreadable: the edit itself reports that.
		return undefined;
	}
};

function key(path: string): string {
	const absolute = resolve(path);
	try {
		return realpathSync(absolute);
	} catch {
		// Does not exist (yet): the plain path is the identity.
		return absolute;
	}
}

export class FileReadTracker {
	private readonly stamps = new Map<string, string>();

	constructor(private readonly stampOf: FileStamp = localFileStamp) {}

	/** Remembers the file as the model now knows it (after a read, or after our own write). */
	async remember(absolutePath: string): Promise<void> {
		const stamp = await this.stampOf(absolutePath);
		if (stamp === undefined) this.stamps.delete(key(absolutePath));
		else this.stamps.set(key(absolutePath), stamp);
	}

	/** Throws when the file was read in this session and has changed on disk since. */
	async assertUnchanged(absolutePath: string, shownPath: string): Promise<void> {
		const known = this.stamps.get(key(absolutePath));
		if (known === undefined) return;
		const now = await this.stampOf(absolutePath);
		if (now === undefined || now === known) return;
		throw new Error(
			`File ${shownPath} has changed on disk since you last read it. No changes were made: read it again with the read tool, then redo the edit.`,
		);
	}
}
