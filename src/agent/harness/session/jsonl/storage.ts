/**
 * `JsonlStorage`: the in-memory session state backed by one format-4 JSONL file. Opening replays every complete
 * transaction (a torn last line is cut off and the file rewritten); each commit appends one line.
 */
import type { Context } from "../../context.ts";
import type { FileSystem } from "../../env-types.ts";
import { StateBackedStorage } from "../state-storage.ts";
import type { CommitResult, CommittedWrite, Storage, Write } from "../types.ts";
import {
	fileValue,
	JSONL_STORAGE_VERSION,
	type JsonlStorageHeader,
	parseJsonlSessionHeader,
	parseJsonlTransaction,
	publishFileAtomically,
	publishJsonl,
	serializeJsonlTransaction,
	splitCompleteLines,
} from "./codec.ts";

export interface JsonlStorageOptions {
	fileSystem: FileSystem;
	path: string;
	now?: () => number;
}

export class JsonlStorage extends StateBackedStorage implements Storage {
	protected readonly kind = "JsonlStorage";
	private readonly fs: FileSystem;
	private readonly path: string;
	private readonly now: () => number;

	private constructor(
		options: JsonlStorageOptions,
		readonly header: JsonlStorageHeader,
	) {
		super();
		this.fs = options.fileSystem;
		this.path = options.path;
		this.now = options.now ?? Date.now;
	}

	/** A new file with `header` and, when given, one first transaction. */
	static async create(
		options: JsonlStorageOptions,
		header: JsonlStorageHeader,
		initialWrites: Write[],
		context: Context,
	): Promise<JsonlStorage> {
		const storage = new JsonlStorage(options, header);
		const prepared = storage.state.prepareCommit(initialWrites, storage.now());
		await publishJsonl(options.fileSystem, options.path, header, context, async (append) => {
			if (prepared.writes.length > 0) await append(prepared.writes);
		});
		storage.state.applyValidated(prepared.writes);
		return storage;
	}

	static async open(options: JsonlStorageOptions, context: Context): Promise<JsonlStorage> {
		const { path } = options;
		const content = fileValue(
			await options.fileSystem.readTextFile(path, context),
			`Failed to read JSONL storage ${path}`,
		);
		const { lines, torn } = splitCompleteLines(content);
		const first = lines[0];
		if (first === undefined || first === "") throw new Error(`Invalid JSONL storage ${path}: missing header`);
		const parsed = parseJsonlSessionHeader(first);
		if (!parsed.ok) throw new Error(`Invalid JSONL storage ${path}: invalid header`, { cause: parsed.error });
		if (parsed.value.format !== "v4")
			throw new Error(
				`Session file ${path} is a pi version 3 session; this JsonlSessionRepo opens format 4 files only`,
			);
		const header = parsed.value.header;
		if (header.storageVersion !== JSONL_STORAGE_VERSION)
			throw new Error(`Session ${header.id} uses unsupported storage version ${header.storageVersion}`);
		const storage = new JsonlStorage(options, header);
		for (let i = 1; i < lines.length; i++) {
			try {
				const writes = parseJsonlTransaction(lines[i] as string);
				storage.state.validateCommitted(writes);
				storage.state.applyValidated(writes);
			} catch (error) {
				throw new Error(`Invalid JSONL storage ${path}: line ${i + 1}`, { cause: error });
			}
		}
		if (header.nextSeq !== undefined) storage.state.advanceNextSeq(header.nextSeq);
		if (torn)
			await publishFileAtomically(options.fileSystem, path, context, (append) => append(`${lines.join("\n")}\n`));
		return storage;
	}

	async commit(writes: Write[], context: Context): Promise<CommitResult> {
		if (this.status !== "open") throw new Error("JsonlStorage is closed");
		return this.enqueue(async () => {
			const prepared = this.state.prepareCommit(writes, this.now());
			if (prepared.writes.length > 0) {
				const line = `${serializeJsonlTransaction(prepared.writes as CommittedWrite[])}\n`;
				fileValue(await this.fs.appendFile(this.path, line, context), `Failed to append JSONL storage ${this.path}`);
			}
			const stats = this.state.applyValidated(prepared.writes);
			return { ...prepared.result, stats };
		});
	}

	/** The first sequence number a later commit would get (taken in commit order). */
	captureForkNextSeq(_context: Context): Promise<number> {
		if (this.status !== "open") return Promise.reject(new Error("JsonlStorage is closed"));
		return this.enqueue(() => this.state.getNextSeq());
	}

	close(_context: Context): Promise<void> {
		if (!this.closing) {
			this.status = "closing";
			this.closing = this.queue.then(() => {
				this.status = "closed";
			});
		}
		return this.closing;
	}
}
