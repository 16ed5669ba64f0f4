/**
 * `process.exit` as it was when pi started. pi's own exits go through `exitProcess`, so that a `process.exit` an
 * extension calls can be told apart and announced (extensions/exit-report.ts).
 */
const original = process.exit;

export function exitProcess(code?: number): never {
	return original.call(process, code);
}
