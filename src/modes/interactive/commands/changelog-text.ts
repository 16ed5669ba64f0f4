/**
 * Our changelog (`docs/changelog.md`), embedded in the binary as text; loaded only when `/changelog` asks for it.
 * Entries are the `## [x.y.z]` sections, newest first in the file, as pi's CHANGELOG.md is laid out.
 */
import changelog from "../../../../docs/changelog.md" with { type: "text" };

export interface ChangelogEntry {
	version: string;
	/** The section, its heading included. */
	content: string;
}

export function changelogEntries(text: string = changelog): ChangelogEntry[] {
	const entries: ChangelogEntry[] = [];
	let current: { version: string; lines: string[] } | undefined;
	const close = () => {
		if (current) entries.push({ version: current.version, content: current.lines.join("\n").trim() });
	};
	for (const line of text.split("\n")) {
		if (line.startsWith("## ")) {
			close();
			const version = /^##\s+\[?(\d+\.\d+\.\d+)\]?/.exec(line)?.[1];
			current = version ? { version, lines: [line] } : undefined;
		} else current?.lines.push(line);
	}
	close();
	return entries;
}
