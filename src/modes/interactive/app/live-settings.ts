/**
 * What `/settings` changes while the app runs, beyond the app's own settings object: the chat's display settings
 * (read by the transcript at each use) and the theme control.
 */
import type { ThemeControl } from "./theme-control.ts";

export interface DisplaySettings {
	showImages?: boolean;
	imageWidthCells?: number;
	outputPad?: number;
	showCacheMissNotices?: boolean;
}

export interface LiveSettings {
	display: DisplaySettings;
	themes: ThemeControl;
}
