/** Types of the plain-JavaScript parity driver. */
export function runScripts(tui: unknown, scripts: unknown[]): Promise<unknown[]>;
