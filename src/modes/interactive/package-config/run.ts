/**
 * Runs `pi config`'s screen on the terminal (its own short-lived screen, as pi does) until Escape; every toggle is
 * written to settings at once.
 */
import type { SettingsPackageScope } from "../../../packages/index.ts";
import { initTheme, loadChalk } from "../../../resources/index.ts";
import { Container, ProcessTerminal, type Terminal, TuiMainScreen } from "../../../tui/index.ts";
import type { ConfigPackage, ConfigResource } from "../../package-config/model.ts";
import { PackageConfigView } from "./view.ts";

export interface PackageConfigScreenOptions {
	scope: SettingsPackageScope;
	projectAvailable: boolean;
	packages(scope: SettingsPackageScope): ConfigPackage[];
	toggle(pkg: ConfigPackage, resource: ConfigResource): Promise<ConfigPackage[]>;
	terminal?: Terminal;
	/** The `theme` setting (built-in and agent-dir themes; the terminal's default without one). */
	themeName?: string;
}

export async function runPackageConfigScreen(options: PackageConfigScreenOptions): Promise<void> {
	await loadChalk();
	if (options.themeName) initTheme(options.themeName);
	const terminal = options.terminal ?? new ProcessTerminal();
	const tui = new TuiMainScreen(terminal, false);
	const root = new Container();
	tui.addChild(root);
	await new Promise<void>((resolve) => {
		const view = new PackageConfigView({
			scope: options.scope,
			projectAvailable: options.projectAvailable,
			packages: options.packages,
			toggle: options.toggle,
			onClose: resolve,
			requestRender: () => tui.requestRender(),
			rows: terminal.rows,
		});
		root.addChild(view);
		tui.setFocus(view);
		tui.start();
	});
	tui.stop();
}
