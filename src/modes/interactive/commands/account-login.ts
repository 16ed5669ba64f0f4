/**
 * `/login` with an account (OAuth): the provider list of built-in account logins, then the login dialog that shows
 * the URL (or device code), waits for the browser callback or a pasted redirect URL, and saves the tokens to
 * auth.json only when the login completes. Escape cancels and leaves auth.json as it was.
 */
import {
	type ApiKeyAuth,
	LOGIN_CANCELLED,
	loginWithOAuth,
	oauthLoginProviders,
	type ProviderAuthInteraction,
} from "../../../ai/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { ExtensionSelectorComponent } from "../dialogs/selector.ts";
import { OAuthLoginDialog } from "../selectors/oauth-login-dialog.ts";
import { ProviderPicker } from "../selectors/provider-picker.ts";
import type { CommandContext } from "./types.ts";

export interface AccountProvider {
	id: string;
	name: string;
	loginLabel?: string;
}

/** The built-in account logins, with where each provider's credentials come from now. */
export function accountProviders(c: CommandContext): (AccountProvider & { status?: { source?: string } })[] {
	return oauthLoginProviders()
		.map((p) => {
			const stored = c.authStorage?.get(p.id);
			return {
				id: p.id,
				name: p.loginName,
				...(p.loginLabel ? { loginLabel: p.loginLabel } : {}),
				...(stored ? { status: { source: "stored credential" } } : {}),
			};
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

export function pickAccountProvider(
	c: CommandContext,
	done: (provider: AccountProvider) => void,
	initialSearch?: string,
): void {
	const providers = accountProviders(c);
	if (providers.length === 0) {
		c.app.chat.showStatus("No subscription providers available.");
		return;
	}
	let restore = () => {};
	const picker = new ProviderPicker({
		mode: "login",
		providers,
		...(initialSearch ? { initialSearch } : {}),
		onSelect: (entry) => {
			restore();
			const provider = providers.find((p) => p.id === entry.id);
			if (provider) done(provider);
		},
		onCancel: () => {
			restore();
			c.app.tui.requestRender();
		},
	});
	restore = c.showSelector(picker);
}

/** Runs the provider's account login in the dialog; `onSaved` runs after the tokens are in auth.json. */
export function loginWithAccount(c: CommandContext, provider: AccountProvider, onSaved: () => Promise<void>) {
	const storage = c.authStorage;
	if (!storage) {
		c.app.chat.showError(`Cannot log in: auth.json is not in use in this session`);
		return Promise.resolve();
	}
	return runLoginDialog(
		c,
		provider.name,
		async (interaction) => void (await loginWithOAuth(storage, provider.id, interaction)),
		{
			onSaved,
			failure: `Failed to login to ${provider.name}`,
		},
	);
}

/**
 * A provider's own `/login` steps (its `login(interaction)`; prompts and notices in the login dialog, a select as a
 * list) with the credential it returns saved to auth.json — Amazon Bedrock's bearer token, AWS profile or
 * credential chain.
 */
export function loginWithApiKeyMethod(
	c: CommandContext,
	provider: AccountProvider,
	login: NonNullable<ApiKeyAuth["login"]>,
	onSaved: () => Promise<void>,
) {
	const storage = c.authStorage;
	if (!storage) {
		c.app.chat.showError(`Cannot save an API key: auth.json is not in use in this session`);
		return Promise.resolve();
	}
	return runLoginDialog(
		c,
		provider.name,
		async (interaction) => {
			const { type: _type, ...fields } = await login(interaction);
			interaction.signal.throwIfAborted();
			await storage.set(provider.id, { type: "api_key", ...fields });
		},
		{ onSaved, failure: `Failed to save API key for ${provider.name}` },
	);
}

async function runLoginDialog(
	c: CommandContext,
	name: string,
	run: (interaction: ProviderAuthInteraction) => Promise<void>,
	outcome: { onSaved: () => Promise<void>; failure: string },
): Promise<void> {
	let restore = () => {};
	const render = () => c.app.tui.requestRender();
	const dialog = new OAuthLoginDialog(name, render);
	const show = () => {
		restore = c.showSelector(dialog);
		render();
	};
	show();
	const interaction: ProviderAuthInteraction = {
		signal: dialog.signal,
		notify(event) {
			if (event.type === "auth_url") dialog.showAuth(event.url, event.instructions);
			else if (event.type === "device_code") dialog.showDeviceCode(event.userCode, event.verificationUri);
			else if (event.type === "info") {
				dialog.showLine(event.message, "text");
				for (const link of event.links ?? []) dialog.showLine(link.label ? `${link.label}: ${link.url}` : link.url);
			} else dialog.showLine(event.message);
			render();
		},
		prompt(prompt) {
			if (prompt.type === "select") {
				return new Promise((resolve, reject) => {
					restore();
					let back = () => {};
					const labels = prompt.options.map((o) => o.label);
					const selector = new ExtensionSelectorComponent(
						prompt.message,
						labels,
						(label) => {
							back();
							show();
							const id = prompt.options.find((o) => o.label === label)?.id;
							if (id) resolve(id);
							else reject(new Error(LOGIN_CANCELLED));
						},
						() => {
							back();
							show();
							dialog.cancel();
							reject(new Error(LOGIN_CANCELLED));
						},
					);
					back = c.showSelector(selector);
					render();
				});
			}
			const answer = dialog.ask(prompt.message, prompt.placeholder, prompt.type === "secret");
			prompt.signal?.addEventListener("abort", () => dialog.withdraw(), { once: true });
			render();
			return answer;
		},
	};
	try {
		await run(interaction);
		restore();
		await outcome.onSaved();
	} catch (error) {
		restore();
		const message = dialog.signal.aborted ? LOGIN_CANCELLED : errorMessage(error);
		if (message !== LOGIN_CANCELLED) c.app.chat.showError(`${outcome.failure}: ${message}`);
	} finally {
		render();
	}
}
