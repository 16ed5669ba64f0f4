/**
 * Hot reload of the current theme when it is a user theme file (`<agentDir>/themes/<name>.json`, as pi watches):
 * a saved change redraws the screen in the new colours; a file that no longer parses keeps the old colours and
 * says why in one line.
 */
import { dirname, resolve } from "node:path";
import { currentTheme, loadThemeFile, setCurrentTheme, Theme } from "../../../resources/index.ts";
import { nodeFs } from "../../../util/index.ts";

const DEBOUNCE_MS = 100;

export function watchThemeFile(themesDir: string, onReloaded: () => void, onError: (line: string) => void): () => void {
	const path = currentTheme().sourcePath;
	if (!path || dirname(resolve(path)) !== resolve(themesDir)) return () => {};
	let timer: ReturnType<typeof setTimeout> | undefined;
	const reload = () => {
		const active = currentTheme();
		if (active.sourcePath !== path) return;
		const sourceInfo = active.sourceInfo ?? {
			path,
			source: "auto",
			scope: "user" as const,
			origin: "top-level" as const,
		};
		const loaded = loadThemeFile({ path, sourceInfo });
		const error = loaded.diagnostics.find((d) => d.type === "error");
		if (!loaded.definition || error) {
			onError(`${path}: ${error?.message ?? "theme not loaded"}; keeping the previous colours`);
			return;
		}
		setCurrentTheme(new Theme(loaded.definition, active.getColorMode()));
		onReloaded();
	};
	try {
		const watcher = nodeFs().watch(path, { persistent: false }, () => {
			if (timer) clearTimeout(timer);
			timer = setTimeout(reload, DEBOUNCE_MS);
		});
		watcher.on("error", () => watcher.close());
		return () => {
			if (timer) clearTimeout(timer);
			watcher.close();
		};
	} catch {
		return () => {};
	}
}
