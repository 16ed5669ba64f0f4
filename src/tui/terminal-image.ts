/**
 * Inline images in the terminal: escape sequences of the Kitty graphics protocol and of iTerm2's inline files,
 * `renderImage` choosing between them by the detected capabilities, the one-line text shown instead where neither
 * works, and OSC 8 hyperlinks. The renderer also uses the Kitty helpers here to re-place, crop and delete images
 * that scroll or change (by the image id kept with each rendered image line).
 */
import { isAbsolute } from "node:path";
import { homeDir } from "../util/index.ts";
import { calculateImageCellSize, type ImageCellSize, type ImageDimensions } from "./image-dimensions.ts";
import { getCapabilities, getCellDimensions } from "./terminal-capabilities.ts";

export interface ImageRenderOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	preserveAspectRatio?: boolean;
	/** Kitty image id: an image sent again under the same id replaces the earlier one. */
	imageId?: number;
	/** False keeps the cursor where it was after Kitty places the image. */
	moveCursor?: boolean;
}

export interface KittyEncodeOptions {
	columns?: number;
	rows?: number;
	imageId?: number;
	/** False keeps the cursor where it was after placement (default: Kitty moves it past the image). */
	moveCursor?: boolean;
}

export interface ITerm2EncodeOptions {
	width?: number | string;
	height?: number | string;
	name?: string;
	preserveAspectRatio?: boolean;
	inline?: boolean;
}

const KITTY_START = "\x1b_G";
const ITERM2_START = "\x1b]1337;File=";
const ST = "\x1b\\";
/** Kitty takes the payload in pieces of at most 4096 base64 characters. */
const KITTY_CHUNK = 4096;

/** Whether a rendered line carries an inline image (Kitty or iTerm2), anywhere in it. */
export { isImageLine } from "./image-line.ts";

/** A random Kitty image id in 1…2³²−1, so separately loaded copies of this module (app, extensions) do not clash. */
export function allocateImageId(): number {
	return Math.floor(Math.random() * 0xfffffffe) + 1;
}

/**
 * A Kitty "transmit and display" command for base64 PNG data, quiet (no replies), split into continued chunks
 * when the payload is longer than one chunk.
 */
export function encodeKitty(base64Data: string, options: KittyEncodeOptions = {}): string {
	const controls = ["a=T", "f=100", "q=2"];
	if (options.moveCursor === false) controls.push("C=1");
	if (options.columns) controls.push(`c=${options.columns}`);
	if (options.rows) controls.push(`r=${options.rows}`);
	if (options.imageId) controls.push(`i=${options.imageId}`);
	const head = controls.join(",");
	if (base64Data.length <= KITTY_CHUNK) return `${KITTY_START}${head};${base64Data}${ST}`;
	let out = "";
	for (let at = 0; at < base64Data.length; at += KITTY_CHUNK) {
		const piece = base64Data.slice(at, at + KITTY_CHUNK);
		const more = at + KITTY_CHUNK < base64Data.length ? 1 : 0;
		out += at === 0 ? `${KITTY_START}${head},m=1;${piece}${ST}` : `${KITTY_START}m=${more};${piece}${ST}`;
	}
	return out;
}

/** Deletes the Kitty image with this id, freeing its data too. */
export function deleteKittyImage(imageId: number): string {
	return `${KITTY_START}a=d,d=I,i=${imageId},q=2${ST}`;
}

/** Deletes every visible Kitty image, freeing their data too. */
export function deleteAllKittyImages(): string {
	return `${KITTY_START}a=d,d=A,q=2${ST}`;
}

/** Removes every visible Kitty placement but keeps the uploaded data (it can be placed again by id). */
export function deleteAllKittyPlacements(): string {
	return `${KITTY_START}a=d,d=a,q=2${ST}`;
}

/** Bytes that base64 text stands for, counted from its length and `=` padding (as Node's Buffer.byteLength does). */
function decodedLength(base64Data: string): number {
	let length = base64Data.length;
	if (base64Data.charCodeAt(length - 1) === 0x3d) length--;
	if (length > 1 && base64Data.charCodeAt(length - 1) === 0x3d) length--;
	return (length * 3) >>> 2;
}

/** An iTerm2 inline-file sequence (OSC 1337) for base64 data; the declared size is the decoded byte count. */
export function encodeITerm2(base64Data: string, options: ITerm2EncodeOptions = {}): string {
	const args = [`inline=${options.inline !== false ? 1 : 0}`, `size=${decodedLength(base64Data)}`];
	if (options.width !== undefined) args.push(`width=${options.width}`);
	if (options.height !== undefined) args.push(`height=${options.height}`);
	if (options.name) args.push(`name=${Buffer.from(options.name).toString("base64")}`);
	if (options.preserveAspectRatio === false) args.push("preserveAspectRatio=0");
	return `${ITERM2_START}${args.join(";")}:${base64Data}\x07`;
}

export interface KittyImageMetadata extends ImageCellSize {
	imageId: number;
	widthPx: number;
	heightPx: number;
}

export interface KittyImagePlacement {
	imageId: number;
	transmissionGeneration: number;
	transmissionBytes: number;
	estimatedDecodedBytes: number;
	sequence: string;
	replacementLine: string;
}

interface RegisteredImage extends KittyImageMetadata {
	/** Counts transmissions, so the renderer can tell a re-sent image from one already on the terminal. */
	transmissionGeneration: number;
}

/** Ids of images rendered with a Kitty id, oldest first, bounded so long sessions do not grow it forever. */
const registered = new Map<number, RegisteredImage>();
const MAX_REGISTERED = 1000;
let generation = 0;

export function registerKittyImageMetadata(metadata: KittyImageMetadata): void {
	generation += 1;
	registered.delete(metadata.imageId);
	registered.set(metadata.imageId, { ...metadata, transmissionGeneration: generation });
	if (registered.size > MAX_REGISTERED) {
		const oldest = registered.keys().next().value;
		if (oldest !== undefined) registered.delete(oldest);
	}
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const KITTY_CONTROLS = /\x1b_G([^;]*);/;

function registeredFor(line: string): RegisteredImage | undefined {
	const controls = KITTY_CONTROLS.exec(line)?.[1];
	if (!controls) return undefined;
	const id = /(?:^|,)i=(\d+)(?:,|$)/.exec(controls)?.[1];
	return id === undefined ? undefined : registered.get(Number.parseInt(id, 10));
}

export function getKittyImageMetadata(line: string): KittyImageMetadata | undefined {
	const found = registeredFor(line);
	if (!found) return undefined;
	const { imageId, columns, rows, widthPx, heightPx } = found;
	return { imageId, columns, rows, widthPx, heightPx };
}

/** Controls of a transmit command that also mean something to a placement (`a=p`). */
const PLACEMENT_KEYS = new Set(["i", "p", "x", "y", "w", "h", "X", "Y", "c", "r", "C", "U", "z", "P", "Q", "H", "V"]);

/**
 * For a line from `renderImage` (Kitty, with a registered id): a placement command showing the already uploaded
 * image again, and the line with its whole (possibly chunked) transmission replaced by that command.
 */
export function getKittyImagePlacement(line: string): KittyImagePlacement | undefined {
	const first = KITTY_CONTROLS.exec(line);
	const metadata = registeredFor(line);
	if (!first || !metadata) return undefined;
	let start = first.index;
	let controls = first[1] as string;
	let end: number;
	// Follow the chunks (m=1 means another follows) to the end of the transmission.
	for (;;) {
		const terminator = line.indexOf(ST, start + KITTY_START.length);
		if (terminator === -1) return undefined;
		end = terminator + ST.length;
		if (!/(?:^|,)m=1(?:,|$)/.test(controls)) break;
		start = end;
		if (!line.startsWith(KITTY_START, start)) return undefined;
		const controlsEnd = line.indexOf(";", start + KITTY_START.length);
		if (controlsEnd === -1) return undefined;
		controls = line.slice(start + KITTY_START.length, controlsEnd);
	}
	const kept = (first[1] as string).split(",").filter((control) => PLACEMENT_KEYS.has(control.split("=", 1)[0] ?? ""));
	const sequence = `${KITTY_START}a=p,q=2,${kept.join(",")}${ST}`;
	return {
		imageId: metadata.imageId,
		transmissionGeneration: metadata.transmissionGeneration,
		transmissionBytes: end - first.index,
		estimatedDecodedBytes: metadata.widthPx * metadata.heightPx * 4,
		sequence,
		replacementLine: `${line.slice(0, first.index)}${sequence}${line.slice(end)}`,
	};
}

/**
 * A Kitty image line showing only rows `hiddenRows` … `hiddenRows + visibleRows - 1` of the image (its source
 * rectangle cut to those rows); the line unchanged when it is not a registered image or nothing is cut.
 */
export function cropKittyImageLine(line: string, hiddenRows: number, visibleRows: number): string {
	const metadata = getKittyImageMetadata(line);
	const match = KITTY_CONTROLS.exec(line);
	if (!metadata || !match || hiddenRows < 0 || hiddenRows >= metadata.rows || visibleRows <= 0) return line;
	const shownRows = Math.min(visibleRows, metadata.rows - hiddenRows);
	if (hiddenRows === 0 && shownRows === metadata.rows) return line;
	const top = Math.floor((metadata.heightPx * hiddenRows) / metadata.rows);
	const bottom = Math.ceil((metadata.heightPx * (hiddenRows + shownRows)) / metadata.rows);
	const height = Math.max(1, Math.min(metadata.heightPx, bottom) - top);
	const controls = (match[1] as string).split(",").filter((control) => !/^[yhr]=/.test(control));
	controls.push(`y=${top}`, `h=${height}`, `r=${shownRows}`);
	return `${line.slice(0, match.index)}${KITTY_START}${controls.join(",")};${line.slice(match.index + match[0].length)}`;
}

/**
 * The escape sequence drawing an image with the terminal's protocol, scaled into `maxWidthCells` (default 80) ×
 * `maxHeightCells` cells, and the cells it covers; null when the terminal shows no images.
 */
export function renderImage(
	base64Data: string,
	imageDimensions: ImageDimensions,
	options: ImageRenderOptions = {},
): { sequence: string; columns: number; rows: number; imageId?: number } | null {
	const protocol = getCapabilities().images;
	if (!protocol) return null;
	const size = calculateImageCellSize(
		imageDimensions,
		options.maxWidthCells ?? 80,
		options.maxHeightCells,
		getCellDimensions(),
	);
	if (protocol === "kitty") {
		if (options.imageId !== undefined) {
			registerKittyImageMetadata({
				imageId: options.imageId,
				columns: size.columns,
				rows: size.rows,
				widthPx: imageDimensions.widthPx,
				heightPx: imageDimensions.heightPx,
			});
		}
		const sequence = encodeKitty(base64Data, {
			columns: size.columns,
			rows: size.rows,
			imageId: options.imageId,
			moveCursor: options.moveCursor,
		});
		return { sequence, columns: size.columns, rows: size.rows, imageId: options.imageId };
	}
	if (protocol === "iterm2") {
		const sequence = encodeITerm2(base64Data, {
			width: size.columns,
			height: "auto",
			preserveAspectRatio: options.preserveAspectRatio ?? true,
		});
		return { sequence, columns: size.columns, rows: size.rows };
	}
	return null;
}

/**
 * `text` as an OSC 8 link to `url`. Terminals that know OSC 8 make it clickable; others drop the sequences and show
 * the text.
 */
export function hyperlink(text: string, url: string): string {
	return `\x1b]8;;${url}${ST}${text}\x1b]8;;${ST}`;
}

/** `~/…` for paths inside the home folder (`$HOME` as it is now, like Node's `os.homedir()`). */
function shortPath(filename: string): string {
	const home = homeDir();
	if (home && (filename === home || filename.startsWith(`${home}/`) || filename.startsWith(`${home}\\`))) {
		return `~${filename.slice(home.length)}`;
	}
	return filename;
}

/**
 * The text shown instead of an image: `[Image: <file> [<mime>] <w>x<h>]`. An absolute file name is shown short
 * (`~/…`) and, where the terminal has links, links to its `file://` URL.
 */
export function imageFallback(mimeType: string, dimensions?: ImageDimensions, filename?: string): string {
	const parts: string[] = [];
	if (filename) {
		const shown = shortPath(filename);
		const linked = getCapabilities().hyperlinks && isAbsolute(filename);
		// node:url is loaded only here, for the rare fallback with a linked file name.
		parts.push(linked ? hyperlink(shown, process.getBuiltinModule("node:url").pathToFileURL(filename).href) : shown);
	}
	parts.push(`[${mimeType}]`);
	if (dimensions) parts.push(`${dimensions.widthPx}x${dimensions.heightPx}`);
	return `[Image: ${parts.join(" ")}]`;
}
