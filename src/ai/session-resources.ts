/** Per-session resources held by providers (sockets, caches), released when a session ends. */

type Cleanup = (sessionId: string) => void;

const cleanups = new Set<Cleanup>();

/** Registers a cleanup run by `cleanupSessionResources`; the returned function unregisters it. */
export function registerSessionResourceCleanup(cleanup: Cleanup): () => void {
	cleanups.add(cleanup);
	return () => {
		cleanups.delete(cleanup);
	};
}

/** Runs every registered cleanup for `sessionId`; all run even when some throw, then one AggregateError reports them. */
export function cleanupSessionResources(sessionId: string): void {
	const errors: unknown[] = [];
	for (const cleanup of cleanups) {
		try {
			cleanup(sessionId);
		} catch (error) {
			errors.push(error);
		}
	}
	if (errors.length > 0) throw new AggregateError(errors, "Failed to cleanup session resources");
}
