/**
 * The part of a theme the screen chrome draws with. The run's theme (resources' `Theme`) satisfies it, and so does
 * pi's; components take one as an argument and fall back to the run's current theme, read at each render so a
 * theme switch shows on the next frame.
 */
import { currentTheme } from "../../../resources/index.ts";

export interface ChromeTheme {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

/** The theme to draw with: the one given, else the run's current theme. */
export function themeOf(given: ChromeTheme | undefined): ChromeTheme {
	return given ?? (currentTheme() as unknown as ChromeTheme);
}
