/** Text formats the footer and status lines show: token counts, the working folder, one-line status text. */
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Token counts as the footer shows them: 999, 1.2k, 12k, 1.2M, 12M. */
export function formatTokens(count: number): string {
	if (count < 1_000) return String(count);
	if (count < 10_000) return `${(count / 1_000).toFixed(1)}k`;
	if (count < 1_000_000) return `${Math.round(count / 1_000)}k`;
	if (count < 10_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
	return `${Math.round(count / 1_000_000)}M`;
}

/** The working folder with the home folder written `~` (only when the folder is inside home). */
export function formatCwdForFooter(cwd: string, home: string | undefined): string {
	if (!home) return cwd;
	const fromHome = relative(resolve(home), resolve(cwd));
	if (fromHome === "") return "~";
	const outside = fromHome === ".." || fromHome.startsWith(`..${sep}`) || isAbsolute(fromHome);
	return outside ? cwd : `~${sep}${fromHome}`;
}

/** Status text on one line: line breaks and tabs become spaces, runs of spaces collapse, ends trimmed. */
export function oneLineStatus(text: string): string {
	return text
		.replace(/[\r\n\t]/g, " ")
		.replace(/ +/g, " ")
		.trim();
}
