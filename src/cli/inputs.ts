/**
 * The prompts of a non-interactive run: piped stdin, `@file` arguments and positional messages. The first prompt
 * is stdin + file contents + the first message; each further message is its own prompt. Text files are inlined as
 * `<file name="ABS_PATH">…</file>`; images (by content) are attached to the first prompt.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ImageContent } from "../ai/index.ts";
import type { PromptInput } from "../modes/index.ts";
import { expandHome, UserError } from "../util/index.ts";

export function detectImageMime(bytes: Uint8Array): string | undefined {
	const b = bytes;
	if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
	if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
	if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "image/gif";
	if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45)
		return "image/webp";
	return undefined;
}

export interface FileInputs {
	text: string;
	images: ImageContent[];
}

export function readFileArguments(files: string[], cwd: string): FileInputs {
	let text = "";
	const images: ImageContent[] = [];
	for (const file of files) {
		const expanded = expandHome(file);
		const path = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
		let bytes: Buffer;
		try {
			if (!statSync(path).isFile()) throw new UserError(`Error: not a file: ${path}`);
			bytes = readFileSync(path);
		} catch (error) {
			if (error instanceof UserError) throw error;
			throw new UserError(`Error: File not found: ${path}`);
		}
		const mimeType = detectImageMime(bytes);
		if (mimeType) images.push({ type: "image", data: bytes.toString("base64"), mimeType });
		else text += `<file name="${path}">\n${bytes.toString("utf8")}\n</file>\n`;
	}
	return { text, images };
}

export function buildInputs(stdin: string | undefined, files: FileInputs, messages: string[]): PromptInput[] {
	const [first, ...rest] = messages;
	const head = [stdin?.replace(/\n+$/, ""), files.text.replace(/\n$/, ""), first].filter(
		(p) => p !== undefined && p !== "",
	);
	const inputs: PromptInput[] = [];
	if (head.length > 0 || files.images.length > 0) {
		inputs.push({ text: head.join("\n"), ...(files.images.length > 0 ? { images: files.images } : {}) });
	}
	for (const message of rest) inputs.push({ text: message });
	return inputs;
}

/** All of stdin when it is piped; undefined for a terminal. */
export async function readPipedStdin(): Promise<string | undefined> {
	if (process.stdin.isTTY) return undefined;
	const chunks: Buffer[] = [];
	for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
	const text = Buffer.concat(chunks).toString("utf8");
	return text === "" ? undefined : text;
}
