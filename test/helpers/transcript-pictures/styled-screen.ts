import { Terminal as XTerm } from "@xterm/headless";
export async function styledRows(lines: string[], cols: number): Promise<string[]> {
	const rows = Math.max(1, lines.length);
	const term = new XTerm({ cols, rows, scrollback: 1000, allowProposedApi: true });
	const bytes = lines.map((line) => `${line}\x1b[0m\x1b]8;;\x07`).join("\r\n");
	await new Promise<void>((r) => term.write(bytes, r));
	const buffer = term.buffer.active;
	const out: string[] = [];
	const cell = buffer.getNullCell();
	for (let y = 0; y < buffer.length && out.length < lines.length; y++) {
		const line = buffer.getLine(y);
		if (!line) continue;
		let row = "";
		let last = "";
		for (let x = 0; x < cols; x++) {
			line.getCell(x, cell);
			const key = `${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}/${cell.isBold()}${cell.isItalic()}${cell.isInverse()}${cell.isUnderline()}${cell.isDim()}`;
			if (key !== last) {
				row += `«${key}»`;
				last = key;
			}
			row += cell.getChars() || " ";
		}
		out.push(row);
	}
	return out;
}
