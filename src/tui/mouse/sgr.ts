/**
 * Mouse reports from the terminal. With SGR mode (`?1006h`) a report is `ESC [ < b ; x ; y M` (press/motion) or
 * `… m` (release), x/y 1-based; the legacy X10 form `ESC [ M` + three bytes is recognised too. Button bits: 0–1 the
 * button (3 = none), 4 shift, 8 alt, 16 ctrl, 32 motion, 64 wheel (button 0 = up, 1 = down).
 */
import type { TuiMouseButton, TuiMouseEvent, TuiMouseEventType } from "../types.ts";

export interface RawMouseReport {
	/** The button byte with all its bits. */
	button: number;
	/** Zero-based cell. */
	x: number;
	y: number;
	release: boolean;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const SGR_MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;

export function parseMouseReport(data: string): RawMouseReport | undefined {
	const sgr = SGR_MOUSE.exec(data);
	if (sgr) {
		return {
			button: Number(sgr[1]),
			x: Number(sgr[2]) - 1,
			y: Number(sgr[3]) - 1,
			release: sgr[4] === "m",
		};
	}
	if (data.length === 6 && data.startsWith("\x1b[M")) {
		const button = data.charCodeAt(3) - 32;
		return {
			button,
			x: data.charCodeAt(4) - 33,
			y: data.charCodeAt(5) - 33,
			// X10 reports a release as button 3 without telling which one.
			release: (button & 64) === 0 && (button & 32) === 0 && (button & 3) === 3,
		};
	}
	return undefined;
}

/** True for any mouse report (consumed by the fullscreen renderer even when nothing handles it). */
export function isMouseReport(data: string): boolean {
	return SGR_MOUSE.test(data) || (data.length === 6 && data.startsWith("\x1b[M"));
}

export function isWheelReport(report: RawMouseReport): boolean {
	return (report.button & 64) !== 0 && (report.button & 3) <= 1;
}

/** -1 for wheel up, 1 for wheel down, 0 for anything else. */
export function wheelDirection(report: RawMouseReport): -1 | 0 | 1 {
	if (!isWheelReport(report)) return 0;
	return (report.button & 3) === 0 ? -1 : 1;
}

export function mouseButtonOf(button: number): TuiMouseButton {
	switch (button & 3) {
		case 0:
			return "left";
		case 1:
			return "middle";
		case 2:
			return "right";
		default:
			return "none";
	}
}

/** press, release, drag (motion with a button held), move (motion without) or wheel. */
export function mouseEventTypeOf(report: RawMouseReport): TuiMouseEventType {
	if (isWheelReport(report)) return "wheel";
	if (report.release) return "release";
	if ((report.button & 32) !== 0) return mouseButtonOf(report.button) === "none" ? "move" : "drag";
	return "press";
}

export interface MouseEventExtra {
	wheelDelta?: number;
	clickCount?: number;
}

/** A screen-level event (x/y equal to screenX/screenY, size = the terminal) from a report. */
export function createMouseEvent(
	type: TuiMouseEventType,
	button: number,
	x: number,
	y: number,
	columns: number,
	rows: number,
	extra: MouseEventExtra = {},
): TuiMouseEvent {
	return {
		type,
		button: type === "wheel" ? "none" : mouseButtonOf(button),
		x,
		y,
		screenX: x,
		screenY: y,
		width: Math.max(1, columns),
		height: Math.max(1, rows),
		shift: (button & 4) !== 0,
		alt: (button & 8) !== 0,
		ctrl: (button & 16) !== 0,
		...(extra.wheelDelta === undefined ? {} : { wheelDelta: extra.wheelDelta }),
		...(extra.clickCount === undefined ? {} : { clickCount: extra.clickCount }),
	};
}

/** Lines one wheel notch scrolls: `lines`, five times that with Alt held. */
export function wheelLines(report: RawMouseReport, lines = 1): number {
	return (report.button & 8) !== 0 ? lines * 5 : lines;
}

/** Parse a report straight into an event for a terminal of `columns` × `rows` (wheelDelta in lines, ±1 notch). */
export function parseMouseEvent(data: string, columns: number, rows: number, lines = 1): TuiMouseEvent | undefined {
	const report = parseMouseReport(data);
	if (!report) return undefined;
	const type = mouseEventTypeOf(report);
	const extra = type === "wheel" ? { wheelDelta: wheelDirection(report) * wheelLines(report, lines) } : {};
	return createMouseEvent(type, report.button, report.x, report.y, columns, rows, extra);
}

/** Clicks within this many milliseconds on the same spot count as a double or triple click. */
export const MULTI_CLICK_MS = 500;

/** Counts 1, 2, 3, 1, … for repeated clicks on the same key (component + cell, or word) within MULTI_CLICK_MS. */
export class ClickCounter {
	private last: { at: number; key: string; target: unknown; count: number } | undefined;

	constructor(private readonly now: () => number = Date.now) {}

	click(target: unknown, key: string): number {
		const at = this.now();
		const last = this.last;
		const count =
			last && at - last.at <= MULTI_CLICK_MS && last.target === target && last.key === key ? (last.count % 3) + 1 : 1;
		this.last = { at, key, target, count };
		return count;
	}

	get lastCount(): number | undefined {
		return this.last?.count;
	}

	reset(): void {
		this.last = undefined;
	}
}
