/** Short notices ("Copied!") shown at the top right of the fullscreen screen for a moment. */
import type { Component } from "../types.ts";
import { truncateToWidth } from "../width.ts";

export class AltScreenFlashes implements Component {
	private readonly shown: { id: number; message: string; timer: ReturnType<typeof setTimeout> }[] = [];
	private next = 0;

	constructor(private readonly requestRender: () => void) {}

	flash(message: string, durationMs = 1000): void {
		const id = this.next++;
		const timer = setTimeout(
			() => {
				const index = this.shown.findIndex((entry) => entry.id === id);
				if (index === -1) return;
				this.shown.splice(index, 1);
				this.requestRender();
			},
			Math.max(0, durationMs),
		);
		(timer as { unref?: () => void }).unref?.();
		this.shown.push({ id, message, timer });
		this.requestRender();
	}

	dispose(): void {
		for (const entry of this.shown) clearTimeout(entry.timer);
		this.shown.length = 0;
	}

	invalidate(): void {}

	render(width: number): string[] {
		return this.shown.map((entry) => `\x1b[7m${truncateToWidth(` ${entry.message} `, width, "")}\x1b[27m`);
	}
}
