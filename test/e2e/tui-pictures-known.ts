/**
 * Example extensions whose pictures still differ from pi 0.87.1's (test/e2e/tui-pictures.test.ts), with the reason,
 * the part of the toolkit (issue 18) that owns the fix, and the first differing line seen. `widths` limits an entry
 * to some widths; without it, every width. A listed extension × width that matches fails the test: delete its entry.
 */
export interface KnownPictureDifference {
	reason: string;
	owner: "width" | "keys" | "render" | "fullscreen" | "markdown" | "editor" | "images" | "pictures" | "version";
	widths?: number[];
}

export const KNOWN_DIFFERENCES: Record<string, KnownPictureDifference> = {
	preset: {
		owner: "editor",
		reason:
			"SelectList lays the description column out at a fixed offset after the widest label; pi 0.87.1 starts it " +
			"at column 32 ('  plan                            anthropic/claude-opus-4-5 | …'; ours '  plan        anthropic/…'), " +
			"and at 40 columns pi drops the description where ours truncates it (row 5 of preset/selector)",
	},
	"custom-header": {
		owner: "version",
		reason:
			"the header prints VERSION from pi-coding-agent: pi shows 'v0.87.1', ours the binary's own version " +
			"('v0.1.0'); VERSION is ours by design (PI_COMPAT_VERSION carries 0.87.1), so this stays",
	},
	qna: {
		owner: "editor",
		reason:
			"Loader renders its spinner line alone; pi-tui's Loader draws a blank row above it, so everything inside " +
			"BorderedLoader sits one row higher (row 2 of qna/loader: pi '', ours ' ⠋ Extracting questions using…')",
	},
	handoff: {
		owner: "editor",
		reason:
			"Loader has no blank row above the spinner as pi-tui's Loader does (row 2 of handoff/loader: pi '', " +
			"ours ' ⠋ Generating handoff prompt...')",
	},
};
