/**
 * Start-up timing (`PI_TIMING=1`, as pi): `timing(label)` records the time since process start at a phase
 * boundary, and `printTimings()` writes the phases with their durations to stderr at exit. Disabled, a mark is
 * one boolean check, so marks can stay in the code.
 */
import { writeStderr } from "./stdio.ts";

const enabled = typeof process !== "undefined" && process.env.PI_TIMING === "1";
const marks: [label: string, ms: number][] = [];

export function timing(label: string): void {
	if (enabled) marks.push([label, performance.now()]);
}

export function printTimings(): void {
	if (!enabled || marks.length === 0) return;
	const lines = ["pi timings (ms since process start, phase duration):"];
	let previous = 0;
	for (const [label, ms] of marks) {
		lines.push(`${ms.toFixed(1).padStart(8)} ${`+${(ms - previous).toFixed(1)}`.padStart(8)}  ${label}`);
		previous = ms;
	}
	writeStderr(`${lines.join("\n")}\n`);
}
