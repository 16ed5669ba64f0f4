/**
 * The project trust question asked before the chat starts (pi 0.87.1 asks it in the terminal when the folder has
 * `.pi` resources, no saved decision exists and `defaultProjectTrust` is "ask"): the folder, what trusting it
 * allows, and pi's choices — trust it, trust its parent, trust or distrust for this session only, distrust it. The
 * question is drawn on its own short-lived screen and wiped before the chat takes the terminal. Escape or Ctrl+C
 * answers "not trusted" for this run, saving nothing.
 */
import { canonicalPath } from "../../../resources/index.ts";
import { Container, ProcessTerminal, type Terminal, TuiMainScreen } from "../../../tui/index.ts";
import { ExtensionSelectorComponent } from "../dialogs/selector.ts";
import { type TrustChoice, trustChoices } from "../selectors/trust-selector.ts";

export interface StartupTrustAnswer {
	trusted: boolean;
	/** What to write to trust.json (empty: this session only, or cancelled). */
	updates: TrustChoice["updates"];
}

export async function askProjectTrustAtStartup(cwd: string, terminal?: Terminal): Promise<StartupTrustAnswer> {
	const dir = canonicalPath(cwd);
	const choices = trustChoices(dir, { sessionOnly: true });
	const title = [
		"Trust project folder?",
		dir,
		"",
		"Trusting it lets pi read this folder's .pi settings and resources, install the project's missing packages and run its extensions.",
	].join("\n");
	const tui = new TuiMainScreen(terminal ?? new ProcessTerminal(), false);
	const root = new Container();
	tui.addChild(root);
	const answer = await new Promise<TrustChoice | undefined>((resolve) => {
		const selector = new ExtensionSelectorComponent(
			title,
			choices.map((choice) => choice.label),
			(label) => resolve(choices.find((choice) => choice.label === label)),
			() => resolve(undefined),
		);
		root.addChild(selector);
		tui.setFocus(selector);
		tui.start();
	});
	root.clear();
	tui.renderNow(true);
	tui.stop();
	return answer ? { trusted: answer.trusted, updates: answer.updates } : { trusted: false, updates: [] };
}
