/** The frame every `/llama` screen has (pi's look): accent rules, a bold accent title, the body, a dim key line. */
import type { Theme } from "../../../resources/index.ts";
import { type Component, Container, DynamicBorder, type SelectListTheme, Spacer, Text } from "../../../tui/index.ts";

export function llamaFrame(theme: Theme, title: string, body: Component[], footer?: string): Container {
	const frame = new Container();
	frame.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
	frame.addChild(new Text(theme.fg("accent", theme.bold(title)), 1, 0));
	for (const child of body) frame.addChild(child);
	if (footer) {
		frame.addChild(new Spacer(1));
		frame.addChild(new Text(theme.fg("dim", footer), 1, 0));
	}
	frame.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
	return frame;
}

export function listTheme(theme: Theme): SelectListTheme {
	return {
		selectedPrefix: (text) => theme.fg("accent", text),
		selectedText: (text) => theme.fg("accent", text),
		description: (text) => theme.fg("muted", text),
		scrollInfo: (text) => theme.fg("dim", text),
		noMatch: (text) => theme.fg("warning", text),
	};
}

/** 1234 → "1.2k", 12_345_678 → "12M" (search hits' downloads). */
export function compactCount(value: number): string {
	if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(value >= 10_000_000 ? 0 : 1)}M`;
	if (value >= 1_000) return `${(value / 1_000).toFixed(value >= 100_000 ? 0 : 1)}k`;
	return String(value);
}
