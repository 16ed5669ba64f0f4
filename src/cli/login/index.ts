/**
 * `pi login [provider]` and `pi logout [provider]`: account sign-in (OAuth) for machines without the interactive
 * mode, run before the usual argument parsing. The URL to open is printed; the login finishes when the browser
 * reaches the loopback callback or when the final redirect URL is pasted on standard input. Nothing is written to
 * auth.json unless the login completes. Returns the exit code.
 */
import { AuthStorage, LOGIN_CANCELLED, loginWithOAuth, oauthLoginProviders } from "../../ai/index.ts";
import { agentPaths } from "../../config/index.ts";
import { errorMessage } from "../../util/index.ts";
import { authFileMessage } from "../auth-file.ts";
import { type LineSource, pauseStdin, stdinLines, terminalInteraction } from "./terminal-interaction.ts";

export const LOGIN_COMMANDS: ReadonlySet<string> = new Set(["login", "logout"]);

export interface LoginCommandDeps {
	agentDir: string;
	out: (text: string) => void;
	err: (text: string) => void;
	lines?: LineSource;
	/** Cancels the login (Ctrl+C); default: SIGINT/SIGTERM. */
	onCancel?: (cancel: () => void) => () => void;
}

function usage(command: string): string {
	const ids = oauthLoginProviders()
		.map((p) => p.id)
		.join(", ");
	return command === "login"
		? `Usage: pi login <provider>   (account login; providers: ${ids})`
		: "Usage: pi logout <provider>";
}

function signals(cancel: () => void): () => void {
	const handler = () => cancel();
	process.on("SIGINT", handler);
	process.on("SIGTERM", handler);
	return () => {
		process.off("SIGINT", handler);
		process.off("SIGTERM", handler);
	};
}

export async function runLoginCommand(argv: readonly string[], deps: LoginCommandDeps): Promise<number> {
	const [command = "login", ...rest] = argv;
	const positional = rest.filter((a) => !a.startsWith("-"));
	if (rest.includes("--help") || rest.includes("-h")) {
		deps.out(`${usage(command)}\n`);
		return 0;
	}
	const providerRef = positional[0];
	if (!providerRef || positional.length > 1) {
		deps.err(`Error: pi ${command} takes one provider\n${usage(command)}\n`);
		return 1;
	}
	const storage = new AuthStorage(agentPaths.auth(deps.agentDir));
	const [issue] = storage.getIssues();
	if (issue && issue.kind !== "entry") {
		deps.err(`${authFileMessage(storage.path, issue)}\n`);
		return 1;
	}
	if (command === "logout") return logout(storage, providerRef, deps);
	const ref = providerRef.toLowerCase();
	const provider = oauthLoginProviders().find((p) => p.id === ref || p.name.toLowerCase() === ref);
	if (!provider) {
		deps.err(`Error: "${providerRef}" has no account login\n${usage("login")}\n`);
		return 1;
	}
	const controller = new AbortController();
	const stop = (deps.onCancel ?? signals)(() => controller.abort());
	const say = (line: string) => deps.out(`${line}\n`);
	say(`Logging in to ${provider.loginName}`);
	try {
		const interaction = terminalInteraction(controller.signal, deps.lines ?? stdinLines(), say);
		await loginWithOAuth(storage, provider.id, interaction);
		say(`Logged in to ${provider.name}. Credentials saved to ${storage.path}`);
		return 0;
	} catch (error) {
		const message = controller.signal.aborted ? LOGIN_CANCELLED : errorMessage(error);
		deps.err(
			message === LOGIN_CANCELLED
				? `Login to ${provider.name} cancelled; ${storage.path} was not changed\n`
				: `Error: login to ${provider.name} failed: ${message}\n`,
		);
		return 1;
	} finally {
		stop();
		if (!deps.lines) pauseStdin();
	}
}

async function logout(storage: AuthStorage, providerRef: string, deps: LoginCommandDeps): Promise<number> {
	const ref = providerRef.toLowerCase();
	const id =
		storage.list().find((p) => p.toLowerCase() === ref) ??
		oauthLoginProviders().find((p) => p.name.toLowerCase() === ref)?.id;
	const credential = id ? storage.get(id) : undefined;
	if (!id || !credential) {
		deps.err(`Error: no stored credentials for "${providerRef}" in ${storage.path}\n`);
		return 1;
	}
	try {
		await storage.remove(id);
	} catch (error) {
		deps.err(`Error: logout failed: ${errorMessage(error)}\n`);
		return 1;
	}
	deps.out(
		credential.type === "oauth"
			? `Logged out of ${id}\n`
			: `Removed stored API key for ${id}. Environment variables and models.json config are unchanged.\n`,
	);
	return 0;
}
