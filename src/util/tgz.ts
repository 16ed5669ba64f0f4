/** Reading gzip-compressed tar archives (npm packages, release archives): the regular files, by path. */

/** The regular files of a gzip-compressed tar, by path (pax long names honoured, links and folders skipped). */
export function readTgz(bytes: Uint8Array): Map<string, Uint8Array> {
	const tar = Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>);
	const files = new Map<string, Uint8Array>();
	const text = (from: number, length: number) => {
		const slice = tar.subarray(from, from + length);
		const zero = slice.indexOf(0);
		return new TextDecoder().decode(zero >= 0 ? slice.subarray(0, zero) : slice);
	};
	let offset = 0;
	let longName: string | undefined;
	while (offset + 512 <= tar.length) {
		const name = text(offset, 100);
		if (name === "") break;
		const size = Number.parseInt(text(offset + 124, 12).trim() || "0", 8);
		const type = text(offset + 156, 1);
		const prefix = text(offset + 345, 155);
		const body = tar.subarray(offset + 512, offset + 512 + size);
		if (type === "x") {
			const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body));
			longName = path?.[1];
		} else if (type === "0" || type === "") {
			files.set(longName ?? (prefix ? `${prefix}/${name}` : name), body);
			longName = undefined;
		} else {
			longName = undefined;
		}
		offset += 512 + Math.ceil(size / 512) * 512;
	}
	return files;
}
