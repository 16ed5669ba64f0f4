/**
 * The prompts of a non-interactive run: piped stdin, `@file` arguments and positional messages. The first prompt
 * is stdin + file contents + the first message; each further message is its own prompt. Text files are inlined as
 * `<file name="ABS_PATH">…</file>`; images (by content) are attached to the first prompt, with an empty
 * `<file name="ABS_PATH"></file>` in the text so the model knows which file each image is (holding the conversion note
 * when a BMP was converted to PNG). Empty files are skipped.
 */

import type { ImageContent } from "../ai/index.ts";
import type { PromptInput } from "../modes/index.ts";
import { processImage, readPathVariants, resolveToolPath, sniffImageMimeType } from "../tools/index.ts";
import { existsSync, readFileSync, readStdinIfPiped, statSync, UserError } from "../util/index.ts";

export interface FileInputs {
	text: string;
	images: ImageContent[];
}

/** The file an `@path` argument names: `~` expanded, relative to cwd, with the read tool's spelling fallbacks. */
function locateFileArgument(file: string, cwd: string): string {
	const path = resolveToolPath(file, cwd);
	if (existsSync(path)) return path;
	return readPathVariants(path).find((variant) => existsSync(variant)) ?? path;
}

function readFileArgument(path: string): Buffer {
	let isFile: boolean;
	try {
		isFile = statSync(path).isFile();
	} catch {
		throw new UserError(`Error: File not found: ${path}`);
	}
	// FIFOs and devices could block or never end; directories have no content to inline.
	if (!isFile) throw new UserError(`Error: not a regular file: ${path}`);
	try {
		return readFileSync(path);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		throw new UserError(`Error: could not read file ${path}${typeof code === "string" ? ` (${code})` : ""}`);
	}
}

export async function readFileArguments(files: string[], cwd: string): Promise<FileInputs> {
	let text = "";
	const images: ImageContent[] = [];
	for (const file of files) {
		const path = locateFileArgument(file, cwd);
		const bytes = readFileArgument(path);
		if (bytes.length === 0) continue;
		const mimeType = sniffImageMimeType(bytes);
		if (mimeType) {
			// Converted here when providers do not take the type (BMP); resizing happens when the prompt is sent.
			const done = await processImage(bytes, mimeType, { autoResizeImages: false });
			if (!done.ok) {
				text += `<file name="${path}">${done.message}</file>\n`;
				continue;
			}
			images.push({ type: "image", data: done.data, mimeType: done.mimeType });
			text += `<file name="${path}">${done.hints.join("\n")}</file>\n`;
		} else {
			const content = bytes.toString("utf8").replace(/^\uFEFF/, "");
			text += `<file name="${path}">\n${content}\n</file>\n`;
		}
	}
	return { text, images };
}

/** Piped stdin (trimmed; blank counts as none), file text, and the first message form the first prompt. */
export function buildInputs(stdin: string | undefined, files: FileInputs, messages: string[]): PromptInput[] {
	const [first, ...rest] = messages;
	const head = [stdin?.trim(), files.text.replace(/\n$/, ""), first].filter(
		(part): part is string => part !== undefined && part !== "",
	);
	const inputs: PromptInput[] = [];
	if (head.length > 0 || files.images.length > 0) {
		inputs.push({ text: head.join("\n"), ...(files.images.length > 0 ? { images: files.images } : {}) });
	}
	for (const message of rest) inputs.push({ text: message });
	return inputs;
}

/** All of stdin when it is piped; undefined for a terminal (or /dev/null). */
export function readPipedStdin(): Promise<string | undefined> {
	return readStdinIfPiped();
}
