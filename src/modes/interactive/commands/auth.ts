/**
 * `/login [provider]` and `/logout`: API keys saved to and removed from `auth.json` (through the credential store:
 * locked, written whole by rename, mode 0600). Without a provider `/login` asks how to sign in, then which
 * provider; the key is typed into a masked field, an account login (OAuth) runs in its own dialog
 * (account-login.ts). `/logout` removes either.
 */
import { bedrockApiKeyAuth } from "../../../ai/index.ts";
import { agentPaths } from "../../../config/index.ts";
import { applyModel, providerDefaultModel } from "../../../runtime/index.ts";
import type { AutocompleteItem } from "../../../tui/index.ts";
import { errorMessage, fuzzyFilter } from "../../../util/index.ts";
import { ExtensionSelectorComponent } from "../dialogs/selector.ts";
import { ApiKeyDialog } from "../selectors/login-dialog.ts";
import { type ProviderEntry, ProviderPicker } from "../selectors/provider-picker.ts";
import {
	type AccountProvider,
	accountProviders,
	loginWithAccount,
	loginWithApiKeyMethod,
	pickAccountProvider,
} from "./account-login.ts";
import { type LoginProvider, loginProviders, providerName } from "./login-providers.ts";
import { settingsTarget } from "./target.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

const ACCOUNT_LABEL = "Sign in with an account";
const API_KEY_LABEL = "Sign in with an API key";

function authPath(c: CommandContext): string {
	return agentPaths.auth(c.agentDir);
}

function askForKey(c: CommandContext, provider: LoginProvider): void {
	// A llama.cpp router takes its URL and an optional key (ai/llama, modes/interactive/llama).
	if (provider.id === "llama.cpp") return void import("../llama/index.ts").then((m) => m.loginLlamaCpp(c));
	// Amazon Bedrock asks how to authenticate: a bearer token, an AWS profile or the AWS credential chain.
	if (provider.id === "amazon-bedrock" && bedrockApiKeyAuth.login) {
		const saved = `Saved API key for ${provider.name}`;
		return void loginWithApiKeyMethod(c, provider, bedrockApiKeyAuth.login, () => afterLogin(c, provider, saved));
	}
	const storage = c.authStorage;
	if (!storage) {
		c.app.chat.showError(`Cannot save an API key: ${authPath(c)} is not in use in this session`);
		return;
	}
	let restore = () => {};
	const dialog = new ApiKeyDialog({
		providerName: provider.name,
		message: provider.prompt,
		onSubmit: (key) => {
			restore();
			c.app.tui.requestRender();
			storage
				.set(provider.id, { type: "api_key", key })
				.then(() => afterLogin(c, provider, `Saved API key for ${provider.name}`))
				.catch((error) => c.app.chat.showError(`Failed to save API key for ${provider.name}: ${errorMessage(error)}`))
				.finally(() => c.app.tui.requestRender());
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(dialog);
}

/**
 * After a key is saved. Without a session yet (no credentials at start-up) the runtime is rebuilt so the chat can
 * be used at once, and the provider's default model is selected and saved as the default, as pi does.
 */
async function afterLogin(c: CommandContext, provider: { id: string }, saved: string): Promise<void> {
	if (c.host.session) {
		c.view.updateBorderColor();
		c.app.chat.showStatus(`${saved}. Credentials saved to ${authPath(c)}`);
		return;
	}
	const model = providerDefaultModel(provider.id, c.registry.getAvailable());
	if (!model) {
		c.app.chat.showStatus(`${saved}. Credentials saved to ${authPath(c)}`);
		c.app.chat.showError(`${saved}, but no models are available for that provider. Use /model to select a model.`);
		return;
	}
	try {
		await c.store?.update("global", (data) => {
			data.defaultProvider = model.provider;
			data.defaultModel = model.id;
		});
		await c.host.reload();
		const t = settingsTarget(c);
		if (!t) throw new Error(c.host.current.noModelReason ?? "the session could not start");
		const current = t.session.agent.state.model;
		if (current.provider !== model.provider || current.id !== model.id) await applyModel(t, model, "set");
		c.view.updateBorderColor();
		c.app.chat.showStatus(`${saved}. Selected ${model.id}. Credentials saved to ${authPath(c)}`);
	} catch (error) {
		c.app.chat.showStatus(`${saved}. Credentials saved to ${authPath(c)}`);
		c.app.chat.showError(
			`${saved}, but selecting its default model failed: ${errorMessage(error)}. Use /model to select a model.`,
		);
	}
}

function pickProvider(c: CommandContext, initialSearch?: string): void {
	const providers = loginProviders(c.registry);
	let restore = () => {};
	const picker = new ProviderPicker({
		mode: "login",
		providers,
		...(initialSearch ? { initialSearch } : {}),
		onSelect: (entry) => {
			restore();
			const provider = providers.find((p) => p.id === entry.id);
			if (provider) askForKey(c, provider);
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(picker);
}

function accountLogin(c: CommandContext, provider: AccountProvider): void {
	const name = providerName(c.registry, provider.id);
	void loginWithAccount(c, provider, () => afterLogin(c, provider, `Logged in to ${name}`));
}

/** "Select authentication method[ for <provider>]:" — account or API key. */
function chooseMethod(c: CommandContext, title: string, account: () => void, apiKey: () => void, label?: string): void {
	const accountLabel = label ?? ACCOUNT_LABEL;
	let restore = () => {};
	const methods = new ExtensionSelectorComponent(
		title,
		[accountLabel, API_KEY_LABEL],
		(choice) => {
			restore();
			if (choice === API_KEY_LABEL) apiKey();
			else account();
			c.app.tui.requestRender();
		},
		() => {
			restore();
			c.app.tui.requestRender();
		},
	);
	restore = c.showSelector(methods);
}

function login(c: CommandContext, args: string): void {
	if (args) {
		const ref = args.toLowerCase();
		const matches = (p: { id: string; name: string }) => p.id.toLowerCase() === ref || p.name.toLowerCase() === ref;
		const keyProvider = loginProviders(c.registry).find(matches);
		const account = accountProviders(c).find((p) => matches(p) || providerName(c.registry, p.id).toLowerCase() === ref);
		if (keyProvider && account) {
			chooseMethod(
				c,
				`Select authentication method for ${keyProvider.name}:`,
				() => accountLogin(c, account),
				() => askForKey(c, keyProvider),
				account.loginLabel,
			);
			return;
		}
		if (account) accountLogin(c, account);
		else if (keyProvider) askForKey(c, keyProvider);
		else pickProvider(c, args);
		return;
	}
	chooseMethod(
		c,
		"Select authentication method:",
		() => pickAccountProvider(c, (provider) => accountLogin(c, provider)),
		() => pickProvider(c),
	);
}

function logout(c: CommandContext): void {
	const storage = c.authStorage;
	const stored = storage
		? storage.list().flatMap((id): (ProviderEntry & { type: string })[] => {
				const credential = storage.get(id);
				if (!credential) return [];
				return [
					{ id, name: providerName(c.registry, id), type: credential.type, status: { source: "stored credential" } },
				];
			})
		: [];
	if (stored.length === 0) {
		c.app.chat.showStatus(
			"No stored credentials to remove. /logout only removes credentials saved by /login; environment variables and models.json config are unchanged.",
		);
		return;
	}
	stored.sort((a, b) => a.name.localeCompare(b.name));
	let restore = () => {};
	const picker = new ProviderPicker({
		mode: "logout",
		providers: stored,
		onSelect: (entry) => {
			restore();
			const type = stored.find((p) => p.id === entry.id)?.type;
			storage
				?.remove(entry.id)
				.then(() => {
					c.view.updateBorderColor();
					c.app.chat.showStatus(
						type === "oauth"
							? `Logged out of ${entry.name}`
							: `Removed stored API key for ${entry.name}. Environment variables and models.json config are unchanged.`,
					);
				})
				.catch((error) => c.app.chat.showError(`Logout failed: ${errorMessage(error)}`))
				.finally(() => c.app.tui.requestRender());
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(picker);
}

function completeLogin(c: CommandContext, prefix: string): AutocompleteItem[] | null {
	const keys = loginProviders(c.registry).map((p) => ({ id: p.id, name: p.name, kind: "API key" }));
	const accounts = accountProviders(c).map((p) => ({ id: p.id, name: p.name, kind: "account" }));
	const found = fuzzyFilter([...accounts, ...keys], prefix, (p) =>
		p.kind === "API key" ? `${p.id} ${p.name} api_key API key` : `${p.id} ${p.name} oauth account`,
	);
	if (found.length === 0) return null;
	return found.map((p) => ({
		value: p.id,
		label: p.id,
		description: p.name === p.id ? p.kind : `${p.name} · ${p.kind}`,
	}));
}

export const AUTH_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "login",
		description: "Configure provider authentication",
		argumentHint: "<provider>",
		run: login,
		complete: completeLogin,
	},
	{ name: "logout", description: "Remove provider authentication", run: logout },
];
