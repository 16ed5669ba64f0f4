/**
 * The loopback server a browser sign-in redirects to (`http://localhost:<port><path>?code=…&state=…`). It answers
 * with our own page, hands the code to the login once (a wrong `state` is refused and the wait goes on), and can be
 * cancelled. It binds `PI_OAUTH_CALLBACK_HOST` (default 127.0.0.1); the redirect URI the provider knows is not
 * changed by that. When the port cannot be bound (another login running, a busy port) the login still works by
 * pasting the redirect URL, so `listening` is false instead of an error.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { signedInPage, signInFailedPage } from "./oauth-page.ts";

export interface CallbackResult {
	code: string;
	state: string | undefined;
}

export interface CallbackServer {
	/** False when the port could not be bound (the reason is in `bindError`). */
	readonly listening: boolean;
	readonly bindError: string | undefined;
	/** The bound port (the one asked for, or the system's choice for port 0). */
	readonly port: number;
	/** The code from the browser, or null once `cancel` was called. */
	readonly result: Promise<CallbackResult | null>;
	cancel(): void;
	close(): Promise<void>;
}

export interface CallbackServerOptions {
	/** 0: any free port. */
	port: number;
	path: string;
	/** Undefined for providers whose authorization request carries no `state` (OpenRouter). */
	expectedState: string | undefined;
	providerName: string;
	host?: string;
	env?: Record<string, string | undefined>;
}

export function callbackHost(env: Record<string, string | undefined> = process.env): string {
	const host = env.PI_OAUTH_CALLBACK_HOST?.trim();
	return host ? host : "127.0.0.1";
}

function send(res: ServerResponse, status: number, html: string): void {
	res.writeHead(status, {
		"content-type": "text/html; charset=utf-8",
		"cache-control": "no-store",
		connection: "close",
	});
	res.end(html);
}

export async function startCallbackServer(options: CallbackServerOptions): Promise<CallbackServer> {
	const { createServer } = await import("node:http");
	let settle: (value: CallbackResult | null) => void = () => {};
	let settled = false;
	const result = new Promise<CallbackResult | null>((resolve) => {
		settle = (value) => {
			if (settled) return;
			settled = true;
			resolve(value);
		};
	});
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const url = new URL(req.url ?? "/", "http://localhost");
		if (url.pathname !== options.path)
			return send(res, 404, signInFailedPage("This address is not the sign-in callback."));
		if (settled) return send(res, 409, signInFailedPage("This sign-in has already finished or was cancelled."));
		const error = url.searchParams.get("error");
		if (error) {
			const description = url.searchParams.get("error_description");
			return send(
				res,
				400,
				signInFailedPage(
					`${options.providerName} did not grant access.`,
					description ? `${error}: ${description}` : error,
				),
			);
		}
		const code = url.searchParams.get("code");
		const state = url.searchParams.get("state") ?? undefined;
		if (!code) return send(res, 400, signInFailedPage("The callback carries no authorization code."));
		if (options.expectedState !== undefined && state !== options.expectedState) {
			return send(res, 400, signInFailedPage("The callback does not belong to this sign-in (state mismatch)."));
		}
		send(res, 200, signedInPage(options.providerName));
		settle({ code, state });
	};
	const server: Server = createServer((req, res) => {
		try {
			handle(req, res);
		} catch {
			send(res, 500, signInFailedPage("The callback could not be processed."));
		}
	});
	const host = options.host ?? callbackHost(options.env);
	const bindError = await new Promise<string | undefined>((resolve) => {
		server.once("error", (error: NodeJS.ErrnoException) =>
			resolve(`${host}:${options.port}: ${error.code ?? error.message}`),
		);
		server.listen(options.port, host, () => resolve(undefined));
	});
	if (bindError) settle(null);
	return {
		listening: bindError === undefined,
		bindError,
		port: bindError ? options.port : ((server.address() as { port: number } | null)?.port ?? options.port),
		result,
		cancel: () => settle(null),
		close: () =>
			new Promise<void>((resolve) => {
				if (bindError) return resolve();
				server.close(() => resolve());
				server.closeAllConnections?.();
			}),
	};
}
