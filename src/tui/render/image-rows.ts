/**
 * Kitty image lines in a frame: such a line places an image that covers `r` rows, and the component follows it with
 * `r - 1` empty lines. The renderer keeps the rows together (clears them before placing the image, so placing it
 * never scrolls the screen) and deletes an image when the line that placed it is rewritten or cleared.
 */
const KITTY = "\x1b_G";

export interface KittyHeader {
	ids: number[];
	rows: number;
}

/** Image ids (`i=`) and row count (`r=`) of the Kitty sequence in `line`, if it has one. */
export function kittyHeader(line: string): KittyHeader | undefined {
	const start = line.indexOf(KITTY);
	if (start === -1) return undefined;
	const end = line.indexOf(";", start + KITTY.length);
	if (end === -1) return undefined;
	const ids: number[] = [];
	let rows = 1;
	for (const param of line.slice(start + KITTY.length, end).split(",")) {
		const [key, raw] = param.split("=", 2);
		const value = Number(raw);
		if (!Number.isInteger(value) || value <= 0 || value > 0xffffffff) continue;
		if (key === "i") ids.push(value);
		else if (key === "r") rows = value;
	}
	return { ids, rows };
}

/** Sequences deleting the images placed by `line` (empty when it places none). */
export function deleteImagesOf(line: string): string {
	const header = kittyHeader(line);
	if (!header) return "";
	return header.ids.map((id) => `\x1b_Ga=d,d=I,i=${id},q=2\x1b\\`).join("");
}

/** Delete every visible Kitty image placement. */
export const DELETE_ALL_IMAGES = "\x1b_Ga=d,d=A,q=2\x1b\\";

/** Rows (≥ 1) the image line at `row` reserves: its `r=`, cut at the first following row that is not blank. */
export function reservedRows(line: (row: number) => string, row: number, length: number): number {
	const rows = kittyHeader(line(row))?.rows ?? 1;
	let reserved = 1;
	while (reserved < rows && row + reserved < length && isBlankRow(line(row + reserved))) reserved++;
	return reserved;
}

/** A placeholder row: nothing visible (only the line reset). */
function isBlankRow(line: string): boolean {
	return line === "" || line === "\x1b[0m\x1b]8;;\x07";
}
