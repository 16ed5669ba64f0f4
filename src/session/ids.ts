/** Session ids (UUID v7, or a caller-supplied id that is safe in a file name) and 8-hex entry ids. */

export { uuidv7 } from "../util/index.ts";

/**
 * A new entry id: 8 random hex chars, redrawn while `taken` says it is used; after 100 collisions (a file with
 * billions of entries) a full UUID.
 */
export function newEntryId(taken: (id: string) => boolean): string {
	for (let i = 0; i < 100; i++) {
		const id = Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex");
		if (!taken(id)) return id;
	}
	return crypto.randomUUID();
}

const SESSION_ID_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Throws unless `id` can be a session id: it becomes part of a file name, so no separators and no dot first. */
export function assertValidSessionId(id: string): void {
	if (!SESSION_ID_RE.test(id)) {
		throw new Error(
			`Invalid session id ${JSON.stringify(id)}: use 1-128 letters, digits, ".", "_" or "-", not starting with "."`,
		);
	}
}
