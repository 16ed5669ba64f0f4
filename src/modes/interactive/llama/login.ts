/**
 * `/login llama.cpp`: "Login to llama.cpp", the router URL (the suggestion shown as "e.g., …": `LLAMA_BASE_URL`
 * or http://127.0.0.1:8080, used when nothing is typed), then an optional API key (masked). Each answer stays on
 * screen as `> …` (the key as dots). The router is asked for its models before anything is stored; a failure
 * leaves auth.json as it was and says why. Escape cancels at any step.
 */
import { agentPaths } from "../../../config/index.ts";
import { Container, Input, Spacer, Text } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import type { CommandContext } from "../commands/types.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { MaskedInput } from "../selectors/login-dialog.ts";
import { keyPlain, matches, theme } from "../selectors/model-common.ts";
import { flowDeps } from "./deps.ts";

const CANCELLED = "Login cancelled";

class PromptDialog extends Container {
	private readonly body = new Container();
	private input: Input | undefined;
	private pending: { resolve(value: string): void; reject(error: Error): void } | undefined;
	private _focused = false;

	constructor(title: string) {
		super();
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Text(t.fg("accent", t.bold(title)), 1, 0));
		this.addChild(this.body);
		this.addChild(dialogBorder());
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (this.input) this.input.focused = value;
	}

	ask(message: string, options: { placeholder?: string; masked?: boolean } = {}): Promise<string> {
		const t = theme();
		const input = options.masked ? new MaskedInput() : new Input();
		this.body.addChild(new Spacer(1));
		this.body.addChild(new Text(t.fg("text", message), 1, 0));
		if (options.placeholder) this.body.addChild(new Text(t.fg("dim", `e.g., ${options.placeholder}`), 1, 0));
		this.body.addChild(input);
		const hint = (action: string, text: string) => t.fg("dim", keyPlain(action)) + t.fg("muted", ` ${text}`);
		this.body.addChild(
			new Text(`(${hint("tui.select.cancel", "to cancel,")} ${hint("tui.select.confirm", "to submit")})`, 1, 0),
		);
		this.input = input;
		input.focused = this._focused;
		return new Promise((resolve, reject) => {
			this.pending = { resolve, reject };
			input.onSubmit = (value) => {
				const shown = options.masked ? "•".repeat(value.length) : value;
				this.body.children = this.body.children.map((child) =>
					child === input ? new Text(`> ${shown}`, 0, 0) : child,
				);
				this.input = undefined;
				this.pending = undefined;
				resolve(value);
			};
		});
	}

	note(message: string): void {
		this.body.addChild(new Text(theme().fg("dim", message), 1, 0));
	}

	handleInput(data: string): void {
		if (matches(data, "tui.select.cancel")) {
			this.pending?.reject(new Error(CANCELLED));
			this.pending = undefined;
			return;
		}
		this.input?.handleInput(data);
	}
}

export async function loginLlamaCpp(c: CommandContext): Promise<void> {
	const deps = await flowDeps(c);
	const { llama } = deps;
	const name = llama.LLAMA_PROVIDER_NAME;
	const dialog = new PromptDialog(`Login to ${name}`);
	const restore = c.showSelector(dialog);
	const redraw = () => c.app.tui.requestRender();
	try {
		const url = await dialogStep(
			dialog.ask("llama.cpp server URL", { placeholder: llama.suggestedServerUrl(deps.env) }),
			redraw,
		);
		const key = await dialogStep(dialog.ask("API key (optional)", { masked: true }), redraw);
		dialog.note("Checking the llama.cpp server…");
		redraw();
		const { catalog } = await llama.loginLlama(deps.authStorage, { url, key }, { env: deps.env });
		restore();
		const saved = `Saved API key for ${name}`;
		c.app.chat.showStatus(`${saved}. Credentials saved to ${agentPaths.auth(c.agentDir)}`);
		const router = llama.llamaConnection(deps.authStorage, deps.env);
		let offered = 0;
		if (router) {
			const client = new llama.RouterClient(router.serverUrl, router.apiKey);
			await llama
				.refreshLlamaModels(c.registry, client, router, { agentDir: c.agentDir, catalog, env: deps.env })
				.catch((error) =>
					c.app.chat.showWarning(`${saved}, but its model catalog could not be refreshed: ${errorMessage(error)}`),
				);
			offered = c.registry.getModels(llama.LLAMA_PROVIDER_ID).length;
		}
		if (!c.host.session) {
			c.app.chat.showError(
				offered === 0
					? `${saved}. No llama.cpp models are loaded. Use /llama to load a model, then /model to select it.`
					: `${saved}. Use /model to select a loaded llama.cpp model, or /llama to manage models.`,
			);
		}
		c.view.updateBorderColor();
	} catch (error) {
		restore();
		const message = errorMessage(error);
		if (message !== CANCELLED) c.app.chat.showError(`Failed to save API key for ${name}: ${message}`);
	} finally {
		redraw();
	}
}

async function dialogStep(answer: Promise<string>, redraw: () => void): Promise<string> {
	redraw();
	return answer;
}
