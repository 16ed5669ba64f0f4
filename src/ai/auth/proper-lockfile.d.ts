// Types for the part of proper-lockfile 4.x that auth storage uses (the package ships no declarations).
declare module "proper-lockfile" {
	interface RetryOptions {
		retries?: number;
		factor?: number;
		minTimeout?: number;
		maxTimeout?: number;
		randomize?: boolean;
	}

	interface LockOptions {
		/** Lock is considered stale (and may be taken over) when its mtime is older than this, in ms (min 2000). */
		stale?: number;
		/** How often the held lock's mtime is refreshed, in ms. */
		update?: number;
		retries?: number | RetryOptions;
		/** Resolve symlinks (and require the file to exist) before locking. */
		realpath?: boolean;
		lockfilePath?: string;
		onCompromised?: (error: Error) => void;
	}

	type Release = () => Promise<void>;

	interface ProperLockfile {
		(file: string, options?: LockOptions): Promise<Release>;
		lock(file: string, options?: LockOptions): Promise<Release>;
		unlock(file: string, options?: LockOptions): Promise<void>;
		check(file: string, options?: LockOptions): Promise<boolean>;
	}

	const lockfile: ProperLockfile;
	export default lockfile;
	export type { LockOptions, Release, RetryOptions };
}
