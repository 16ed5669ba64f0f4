/**
 * Large message lines keep their `content` on disk. Such a line is parsed without its content (the content's byte
 * range is found by `objectMembers` and replaced by an empty value before `JSON.parse`); the message object then
 * carries an enumerable `content` accessor that reads that range back from the file each time it is needed (the
 * last value is kept while anything else still holds it). A session of large tool outputs and images so costs
 * memory for its entry tree, not for its bytes, and loading it allocates little beyond one line's read buffer.
 *
 * To every reader the message looks as parsed: `JSON.stringify`, spreading, `structuredClone` and property reads see
 * the content. Assigning `content` replaces the accessor with a plain value. When the range no longer holds the
 * same entry's content (another program rewrote or removed the file), the content reads as one text part saying
 * so, and the problem is reported once through `onLost`.
 */
import { CONTENT_MEASURE, type ContentMeasure } from "../util/index.ts";
import { arrayElements, Bytes, objectMembers, plainStringLength, type Range } from "./json-members.ts";
import type { LineSource } from "./store.ts";

/** Message lines at least this long keep their content on disk. */
export const LAZY_CONTENT_MIN = 16 * 1024;

/** Where a deferred content is: byte ranges in the file, and the entry's id as written. */
export interface ContentPlace {
	/** 1-based line, for messages. */
	line: number;
	offset: number;
	length: number;
	idOffset: number;
	idText: string;
}

/**
 * Parses the entry line at positions [start, end) of `bytes` with an empty placeholder for `message.content`;
 * undefined when the line does not have the expected shape (the caller parses it whole instead). The ranges it
 * returns are positions of `bytes`.
 */
export function parseWithoutContent(
	bytes: Bytes,
	start: number,
	end: number,
): { value: unknown; content: Range; id: { start: number; text: string } } | undefined {
	// One pass over the line: the message object is walked as it is reached.
	const top = objectMembers(bytes, start, end, ["id", "message"], { key: "message", keys: ["content"] });
	const id = top?.get("id");
	const content = top?.get("message")?.members?.get("content");
	if (!id || !content) return undefined;
	const first = bytes.at(content.start);
	const empty = first === 0x22 ? '""' : first === 0x5b ? "[]" : undefined;
	if (!empty) return undefined;
	const text = bytes.text(start, content.start) + empty + bytes.text(content.end, end);
	return { value: JSON.parse(text), content, id: { start: id.start, text: bytes.text(id.start, id.end) } };
}

/** Makes `message.content` read from `source` on use (see the module comment). */
export function deferContent(
	message: { content?: unknown },
	source: LineSource,
	place: ContentPlace,
	check: (content: unknown) => string | undefined,
	onLost: (reason: string) => void,
): void {
	const wasString = typeof message.content === "string";
	let kept: WeakRef<object> | undefined;
	let lost = false;
	const load = (): unknown => {
		const hit = kept?.deref();
		if (hit) return hit;
		let value: unknown;
		try {
			value = readContent(source, place, wasString);
			const problem = check(value);
			if (problem) throw new Error(`line ${place.line}: ${problem}`);
		} catch (error) {
			if (!lost) {
				lost = true;
				onLost(error instanceof Error ? error.message : String(error));
			}
			const text = `(content unavailable: line ${place.line} of ${source.path} changed on disk)`;
			return wasString ? text : [{ type: "text", text }];
		}
		if (typeof value === "object") kept = new WeakRef(value as object);
		return value;
	};
	let measured: ContentMeasure | null | undefined;
	const measure = (): ContentMeasure | undefined => {
		if (measured === undefined) {
			try {
				measured = measureContent(source, place) ?? null;
			} catch {
				measured = null;
			}
		}
		return measured ?? undefined;
	};
	Object.defineProperty(message, CONTENT_MEASURE, { value: measure, configurable: true });
	Object.defineProperty(message, "content", {
		enumerable: true,
		configurable: true,
		get: load,
		set(value: unknown) {
			Object.defineProperty(message, "content", { value, writable: true, enumerable: true, configurable: true });
			delete (message as { [CONTENT_MEASURE]?: unknown })[CONTENT_MEASURE];
		},
	});
}

/**
 * Text characters and images of the deferred content, walked on disk a window at a time (nothing of it is
 * decoded); undefined when a text is not plain ASCII or a part is not a text or an image.
 */
function measureContent(source: LineSource, place: ContentPlace): ContentMeasure | undefined {
	const read = (offset: number, length: number, into?: Buffer) => source.read(offset, length, into);
	const end = place.offset + place.length;
	const bytes = new Bytes(Buffer.alloc(0), place.offset, { read, lo: place.offset, hi: end });
	if (bytes.text(place.idOffset, place.idOffset + Buffer.byteLength(place.idText)) !== place.idText) return undefined;
	if (bytes.at(place.offset) === 0x22) {
		const chars = plainStringLength(bytes, { start: place.offset, end });
		return chars === undefined ? undefined : { chars, images: 0 };
	}
	const parts = arrayElements(bytes, place.offset, end);
	if (!parts) return undefined;
	let chars = 0;
	let images = 0;
	for (const part of parts) {
		const members = objectMembers(bytes, part.start, part.end, ["type", "text"]);
		const type = members?.get("type");
		const kind = type ? bytes.text(type.start, type.end) : undefined;
		if (kind === '"image"') images++;
		else if (kind === '"text"') {
			const text = members?.get("text");
			const length = text ? plainStringLength(bytes, text) : undefined;
			if (length === undefined) return undefined;
			chars += length;
		} else return undefined;
	}
	return { chars, images };
}

/** Whether `message.content` is still read from disk. */
export function isDeferred(message: object): boolean {
	return typeof Object.getOwnPropertyDescriptor(message, "content")?.get === "function";
}

function readContent(source: LineSource, place: ContentPlace, wasString: boolean): unknown {
	const idBytes = Buffer.byteLength(place.idText);
	if (source.read(place.idOffset, idBytes).toString("utf8") !== place.idText)
		throw new Error(`line ${place.line} no longer holds the entry it held`);
	const value: unknown = JSON.parse(source.read(place.offset, place.length).toString("utf8"));
	if (wasString ? typeof value !== "string" : !Array.isArray(value))
		throw new Error(`line ${place.line} no longer holds the content it held`);
	return value;
}
