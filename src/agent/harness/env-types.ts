/**
 * The execution-environment seam of pi-agent-core's harness: a file system and a shell whose operations never
 * throw, returning `Result`s with backend-independent error codes. Tools, skill and prompt loaders and shell
 * capture work only through it, so the same code runs against a local machine, a sandbox or a test double.
 */
import type { Context } from "./context.ts";
import type { ExecutionError, FileError, Result } from "./result.ts";

export type FileKind = "file" | "directory" | "symlink";

export interface FileInfo {
	/** Base name of `path`. */
	name: string;
	/** Absolute, normalised path as addressed (symlinks not followed). */
	path: string;
	kind: FileKind;
	size: number;
	mtimeMs: number;
}

export interface TextLine {
	text: string;
	/** Whether the line ended with `\n` (a torn last record does not). */
	terminated: boolean;
}

export interface TextLineReader {
	readLine(context: Context): Promise<Result<TextLine | undefined, FileError>>;
	close(context: Context): Promise<void>;
}

export interface FileSystem {
	cwd: string;
	absolutePath(path: string, context: Context): Promise<Result<string, FileError>>;
	joinPath(parts: string[], context: Context): Promise<Result<string, FileError>>;
	readTextFile(path: string, context: Context): Promise<Result<string, FileError>>;
	openTextLineReader(path: string, context: Context): Promise<Result<TextLineReader, FileError>>;
	readTextLines(
		path: string,
		options: { maxLines?: number } | undefined,
		context: Context,
	): Promise<Result<string[], FileError>>;
	readBinaryFile(path: string, context: Context): Promise<Result<Uint8Array, FileError>>;
	writeFile(path: string, content: string | Uint8Array, context: Context): Promise<Result<void, FileError>>;
	appendFile(path: string, content: string | Uint8Array, context: Context): Promise<Result<void, FileError>>;
	renameFile(sourcePath: string, destinationPath: string, context: Context): Promise<Result<void, FileError>>;
	fileInfo(path: string, context: Context): Promise<Result<FileInfo, FileError>>;
	listDir(path: string, context: Context): Promise<Result<FileInfo[], FileError>>;
	canonicalPath(path: string, context: Context): Promise<Result<string, FileError>>;
	exists(path: string, context: Context): Promise<Result<boolean, FileError>>;
	createDir(
		path: string,
		options: { recursive?: boolean } | undefined,
		context: Context,
	): Promise<Result<void, FileError>>;
	remove(
		path: string,
		options: { recursive?: boolean; force?: boolean } | undefined,
		context: Context,
	): Promise<Result<void, FileError>>;
	createTempDir(prefix: string | undefined, context: Context): Promise<Result<string, FileError>>;
	createTempFile(
		options: { prefix?: string; suffix?: string } | undefined,
		context: Context,
	): Promise<Result<string, FileError>>;
	cleanup(context: Context): Promise<void>;
}

/** Truncation facts of a bounded text (pi's `TruncationResult`). */
export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	lastLinePartial: boolean;
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

export type ShellOutputRetention = "head" | "tail";
export interface ShellOutputLimits {
	maxBytes: number;
	maxLines: number;
	retain?: ShellOutputRetention;
}
export interface ShellOutputCaptureOptions {
	limits: ShellOutputLimits;
	/** Keep the complete output in a file once the limits are crossed. */
	spill?: boolean;
}
export type ShellOutputTruncation = Omit<TruncationResult, "content">;
export interface ShellOutputMetadata {
	truncation: ShellOutputTruncation;
	spillPath?: string;
	lastLineBytes?: number;
}
export interface ShellOutputView extends ShellOutputMetadata {
	text: string;
}
export type ShellOutputUpdate =
	| { kind: "replace"; output: ShellOutputView }
	| { kind: "append"; text: string; metadata: ShellOutputMetadata }
	| { kind: "slide"; drop: number; text: string; metadata: ShellOutputMetadata }
	| { kind: "metadata"; metadata: ShellOutputMetadata };
export interface ShellExecResult extends ShellOutputMetadata {
	exitCode: number;
}
export interface ShellExecOptions {
	cwd?: string;
	env?: Record<string, string>;
	inheritEnv?: boolean;
	/** Seconds. */
	timeout?: number;
	capture?: ShellOutputCaptureOptions;
	onUpdate?: (update: ShellOutputUpdate, context: Context) => void;
}
export interface Shell {
	exec(
		command: string,
		options: ShellExecOptions | undefined,
		context: Context,
	): Promise<Result<ShellExecResult, ExecutionError>>;
	cleanup(context: Context): Promise<void>;
}
export interface ExecutionEnv extends FileSystem, Shell {}

/** A skill loaded from a `SKILL.md` (or given by the application). */
export interface Skill {
	name: string;
	description: string;
	content: string;
	filePath: string;
	disableModelInvocation?: boolean;
}

/** A prompt template for explicit invocation. */
export interface PromptTemplate {
	name: string;
	description?: string;
	content: string;
}
