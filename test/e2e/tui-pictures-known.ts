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

export const KNOWN_DIFFERENCES: Record<string, KnownPictureDifference> = {};
