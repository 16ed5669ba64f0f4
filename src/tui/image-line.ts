/** Lines that carry an inline image (Kitty or iTerm2 protocol) are written untouched: never cut, wrapped or padded. */

const KITTY_START = "\x1b_G";
const ITERM2_START = "\x1b]1337;File=";

export function isImageLine(line: string): boolean {
	return line.includes("\x1b") && (line.includes(KITTY_START) || line.includes(ITERM2_START));
}
