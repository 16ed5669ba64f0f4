/**
 * Gives the terminal back however the process ends: on exit, on an uncaught exception (observed with
 * `uncaughtExceptionMonitor`, so the crash still happens as it would have), and on SIGINT/SIGTERM/SIGHUP (after
 * restoring, the signal is re-raised when nobody else handles it, so the process ends with the signal's status).
 */

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type GuardedSignal = (typeof SIGNALS)[number];

export class ProcessGuard {
	private installed = false;
	private readonly onExit = (): void => this.restoreSafely();
	private readonly onCrash = (): void => this.restoreSafely();
	private readonly onSignal = (signal: GuardedSignal): void => {
		this.restoreSafely();
		this.uninstall();
		if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
	};

	/** `restore` must be synchronous and safe to call more than once. */
	constructor(private readonly restore: () => void) {}

	install(): void {
		if (this.installed || typeof process === "undefined" || typeof process.on !== "function") return;
		this.installed = true;
		process.on("exit", this.onExit);
		process.on("uncaughtExceptionMonitor", this.onCrash);
		for (const signal of SIGNALS) process.on(signal, this.onSignal);
	}

	uninstall(): void {
		if (!this.installed) return;
		this.installed = false;
		process.off("exit", this.onExit);
		process.off("uncaughtExceptionMonitor", this.onCrash);
		for (const signal of SIGNALS) process.off(signal, this.onSignal);
	}

	private restoreSafely(): void {
		try {
			this.restore();
		} catch {
			// The terminal may already be gone (SIGHUP); there is nothing left to restore then.
		}
	}
}
