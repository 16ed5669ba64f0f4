/**
 * The login conversation of `pi login` on a plain terminal (or a headless machine over ssh): the authorize URL and
 * device codes are printed, and questions are answered by lines on standard input. A pasted redirect URL finishes
 * the login like the browser callback does; when standard input ends without one, the login keeps waiting for the
 * callback. Ctrl+C cancels.
 */
import type { AuthEvent, AuthPrompt, ProviderAuthInteraction } from "../../ai/index.ts";

export interface LineSource {
	/** The next line, or undefined at end of input. */
	next(): Promise<string | undefined>;
}

/** Lines of `process.stdin` (read only when a question is asked). */
export function stdinLines(): LineSource {
	const queue: string[] = [];
	const waiters: ((line: string | undefined) => void)[] = [];
	let buffer = "";
	let ended = false;
	let started = false;
	const push = (line: string | undefined) => {
		const waiter = waiters.shift();
		if (waiter) waiter(line);
		else if (line !== undefined) queue.push(line);
	};
	const start = () => {
		if (started) return;
		started = true;
		process.stdin.setEncoding("utf8");
		process.stdin.on("data", (chunk: string) => {
			buffer += chunk;
			let index = buffer.indexOf("\n");
			while (index >= 0) {
				push(buffer.slice(0, index).replace(/\r$/, ""));
				buffer = buffer.slice(index + 1);
				index = buffer.indexOf("\n");
			}
		});
		process.stdin.on("end", () => {
			if (buffer) push(buffer);
			buffer = "";
			ended = true;
			while (waiters.length > 0) waiters.shift()?.(undefined);
		});
	};
	return {
		next() {
			const line = queue.shift();
			if (line !== undefined) return Promise.resolve(line);
			if (ended) return Promise.resolve(undefined);
			start();
			return new Promise((resolve) => waiters.push(resolve));
		},
	};
}

export function pauseStdin(): void {
	process.stdin.pause();
	process.stdin.unref?.();
}

function never<T>(signal: AbortSignal | undefined): Promise<T> {
	return new Promise((_resolve, reject) => {
		signal?.addEventListener("abort", () => reject(new Error("Login cancelled")), { once: true });
	});
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(new Error("Login cancelled"));
	return Promise.race([promise, never<T>(signal)]);
}

export function terminalInteraction(
	signal: AbortSignal,
	lines: LineSource,
	say: (line: string) => void,
): ProviderAuthInteraction {
	const ask = async (prompt: AuthPrompt): Promise<string> => {
		const own = prompt.signal ? AbortSignal.any([signal, prompt.signal]) : signal;
		switch (prompt.type) {
			case "select": {
				say(prompt.message);
				prompt.options.forEach((option, i) => {
					say(`  ${i + 1}. ${option.label}${option.description ? ` — ${option.description}` : ""}`);
				});
				say(`Choose 1-${prompt.options.length} (Enter for 1):`);
				const line = await abortable(lines.next(), own);
				const choice = line === undefined || line.trim() === "" ? 1 : Number(line.trim());
				const option = prompt.options[choice - 1] ?? prompt.options.find((o) => o.id === line?.trim());
				if (!option) throw new Error(`"${line?.trim()}" is not one of the choices`);
				return option.id;
			}
			case "manual_code": {
				say(prompt.message);
				const line = await abortable(lines.next(), own);
				// End of input: no paste will come; the browser callback may still finish the login.
				if (line === undefined) return never<string>(own);
				return line;
			}
			default: {
				say(prompt.message);
				const line = await abortable(lines.next(), own);
				if (line === undefined) throw new Error(`No answer to "${prompt.message}" (standard input ended)`);
				return line;
			}
		}
	};
	const notify = (event: AuthEvent) => {
		switch (event.type) {
			case "auth_url":
				say("Open this URL in a browser to sign in:");
				say("");
				say(`  ${event.url}`);
				say("");
				if (event.instructions) say(event.instructions);
				break;
			case "device_code":
				say(`Open ${event.verificationUri} and enter the code: ${event.userCode}`);
				say("Waiting for you to approve…");
				break;
			case "info":
				say(event.message);
				for (const link of event.links ?? []) say(`  ${link.label ? `${link.label}: ` : ""}${link.url}`);
				break;
			default:
				say(event.message);
		}
	};
	return { signal, prompt: ask, notify };
}
