/**
 * `JsonlSessionRepo`: format-4 session files under `<sessionsRoot>/--<cwd with separators as dashes>--/`, named
 * `<ISO time>_<id>.jsonl`. Listing reads only headers (pi version 3 files are listed too); one handle per
 * session may be open; a fork writes a new file next to its source.
 */
import { uuidv7 } from "../../../../util/index.ts";
import type { Context } from "../../context.ts";
import type { FileInfo, FileSystem } from "../../env-types.ts";
import { StorageBackedSession } from "../session.ts";
import type { ForkOptions, Session, SessionRepo } from "../types.ts";
import {
	fileValue,
	JSONL_FORMAT_VERSION,
	JSONL_STORAGE_VERSION,
	type JsonlSessionCreateOptions,
	type JsonlSessionListOptions,
	type JsonlSessionMetadata,
	type JsonlSessionRepoOptions,
	type JsonlStorageHeader,
	parseJsonlSessionHeader,
} from "./codec.ts";
import { runJsonlFork } from "./fork.ts";
import { JsonlStorage } from "./storage.ts";

function metadataOf(header: JsonlStorageHeader, path: string, modifiedAt: number): JsonlSessionMetadata {
	return {
		id: header.id,
		createdAt: header.createdAt,
		storageVersion: header.storageVersion,
		cwd: header.cwd,
		path,
		modifiedAt,
		...(header.parentSessionId === undefined ? {} : { parentSessionId: header.parentSessionId }),
		...(header.legacyParentSessionPath === undefined
			? {}
			: { legacyParentSessionPath: header.legacyParentSessionPath }),
	};
}

const directoryName = (cwd: string) => `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
const fileName = (createdAt: number, id: string) =>
	`${new Date(createdAt).toISOString().replace(/[:.]/g, "-")}_${encodeURIComponent(id)}.jsonl`;

/** Metadata of a pi version 3 session file, from its header (the parent's id when its file is readable). */
async function legacyMetadata(fs: FileSystem, header: Record<string, unknown>, context: Context) {
	const metadata: Omit<JsonlSessionMetadata, "path" | "modifiedAt"> = {
		id: header.id as string,
		createdAt: Date.parse(header.timestamp as string),
		storageVersion: JSONL_STORAGE_VERSION,
		cwd: header.cwd as string,
	};
	const parentPath = header.parentSession as string | undefined;
	if (parentPath !== undefined) {
		const lines = await fs.readTextLines(parentPath, { maxLines: 1 }, context);
		const parsed = lines.ok && lines.value[0] !== undefined ? parseJsonlSessionHeader(lines.value[0]) : undefined;
		const parentId = parsed?.ok ? (parsed.value.header as { id: string }).id : undefined;
		if (parentId !== undefined) metadata.parentSessionId = parentId;
		else metadata.legacyParentSessionPath = parentPath;
	}
	return metadata;
}

export class JsonlSessionRepo
	implements SessionRepo<JsonlSessionMetadata, JsonlSessionCreateOptions, JsonlSessionListOptions>
{
	private readonly fs: FileSystem;
	private readonly rootInput: string;
	private readonly now: () => number;
	private readonly openSessions = new Map<string, JsonlStorage>();
	private readonly pending = new Set<string>();
	private closed = false;

	constructor(options: JsonlSessionRepoOptions) {
		this.fs = options.fileSystem;
		this.rootInput = options.sessionsRoot;
		this.now = options.now ?? Date.now;
	}

	async create(options: JsonlSessionCreateOptions, context: Context): Promise<Session<JsonlSessionMetadata>> {
		this.checkOpen();
		const createdAt = this.now();
		const id = options.id ?? uuidv7(createdAt);
		const cwd = fileValue(
			await this.fs.absolutePath(options.cwd, context),
			`Failed to resolve session cwd ${options.cwd}`,
		);
		const key = `${cwd}\0${id}`;
		if (this.openSessions.has(key) || this.pending.has(key)) throw new Error(`Session already exists: ${id}`);
		this.pending.add(key);
		let path: string | undefined;
		let storage: JsonlStorage | undefined;
		try {
			path = await this.newSessionPath(cwd, createdAt, id, context);
			const header: JsonlStorageHeader = {
				v: JSONL_FORMAT_VERSION,
				kind: "header",
				id,
				storageVersion: JSONL_STORAGE_VERSION,
				createdAt,
				cwd,
				...(options.parentSessionId === undefined ? {} : { parentSessionId: options.parentSessionId }),
			};
			storage = await JsonlStorage.create({ fileSystem: this.fs, path, now: this.now }, header, [], context);
			const info = fileValue(await this.fs.fileInfo(path, context), `Failed to read session ${path}`);
			return this.publish(metadataOf(header, path, info.mtimeMs), storage, key);
		} catch (error) {
			await storage?.close(context).catch(() => undefined);
			if (path !== undefined) await this.fs.remove(path, { force: true }, context);
			throw error;
		} finally {
			this.pending.delete(key);
		}
	}

	async open(metadata: JsonlSessionMetadata, context: Context): Promise<Session<JsonlSessionMetadata>> {
		this.checkOpen();
		const key = `${metadata.cwd}\0${metadata.id}`;
		if (this.openSessions.has(key)) throw new Error(`Session is already open: ${metadata.id}`);
		if (!fileValue(await this.fs.exists(metadata.path, context), `Failed to check session ${metadata.path}`))
			throw new Error(`Session file does not exist: ${metadata.path}`);
		const storage = await JsonlStorage.open({ fileSystem: this.fs, path: metadata.path, now: this.now }, context);
		try {
			if (storage.header.id !== metadata.id || storage.header.cwd !== metadata.cwd)
				throw new Error(`Session identity does not match header: ${metadata.id}`);
			return this.publish(metadata, storage, key);
		} catch (error) {
			await storage.close(context);
			throw error;
		}
	}

	async list(options: JsonlSessionListOptions | undefined, context: Context): Promise<JsonlSessionMetadata[]> {
		this.checkOpen();
		const cwdInput = options?.cwd;
		const cwd =
			cwdInput === undefined
				? undefined
				: fileValue(await this.fs.absolutePath(cwdInput, context), `Failed to resolve session cwd ${cwdInput}`);
		const root = await this.root(context);
		if (!fileValue(await this.fs.exists(root, context), `Failed to check sessions root ${root}`)) return [];
		const directories =
			cwd === undefined
				? fileValue(await this.fs.listDir(root, context), `Failed to list sessions root ${root}`)
						.filter((entry) => entry.kind === "directory")
						.map((entry) => entry.path)
				: [await this.directory(cwd, context)];
		const found: JsonlSessionMetadata[] = [];
		for (const directory of directories) {
			if (!fileValue(await this.fs.exists(directory, context), `Failed to check sessions directory ${directory}`))
				continue;
			const files = fileValue(
				await this.fs.listDir(directory, context),
				`Failed to list sessions directory ${directory}`,
			);
			for (const file of files) {
				if (file.kind === "directory" || !file.name.endsWith(".jsonl")) continue;
				const metadata = await this.readMetadata(file, context);
				// Directory names are lossy (/a/b and /a-b share one): keep only the asked cwd.
				if (metadata && (cwd === undefined || metadata.cwd === cwd)) found.push(metadata);
			}
		}
		return found.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id) || a.cwd.localeCompare(b.cwd));
	}

	async delete(metadata: JsonlSessionMetadata, context: Context): Promise<void> {
		this.checkOpen();
		if (this.openSessions.has(`${metadata.cwd}\0${metadata.id}`)) throw new Error(`Session is open: ${metadata.id}`);
		if (!fileValue(await this.fs.exists(metadata.path, context), `Failed to check session ${metadata.path}`))
			throw new Error(`Session file does not exist: ${metadata.path}`);
		fileValue(await this.fs.remove(metadata.path, undefined, context), `Failed to delete session ${metadata.path}`);
	}

	async fork(
		source: JsonlSessionMetadata,
		options: ForkOptions,
		context: Context,
	): Promise<Session<JsonlSessionMetadata>> {
		this.checkOpen();
		const createdAt = this.now();
		const cwd = source.cwd;
		const id = options.id ?? uuidv7(createdAt);
		const key = `${cwd}\0${id}`;
		if (this.openSessions.has(key) || this.pending.has(key)) throw new Error(`Session already exists: ${id}`);
		this.pending.add(key);
		const openSource = this.openSessions.get(`${source.cwd}\0${source.id}`);
		let path: string | undefined;
		let storage: JsonlStorage | undefined;
		try {
			const openNextSeq = openSource ? await openSource.captureForkNextSeq(context) : undefined;
			path = await this.newSessionPath(cwd, createdAt, id, context);
			const header: JsonlStorageHeader = {
				v: JSONL_FORMAT_VERSION,
				kind: "header",
				id,
				storageVersion: JSONL_STORAGE_VERSION,
				createdAt,
				cwd,
				parentSessionId: source.id,
			};
			await runJsonlFork(
				{ fileSystem: this.fs, source, openNextSeq, destinationPath: path, destinationHeader: header, fork: options },
				context,
			);
			storage = await JsonlStorage.open({ fileSystem: this.fs, path, now: this.now }, context);
			const info = fileValue(await this.fs.fileInfo(path, context), `Failed to read session ${path}`);
			return this.publish(metadataOf(header, path, info.mtimeMs), storage, key);
		} catch (error) {
			await storage?.close(context).catch(() => undefined);
			if (path !== undefined) await this.fs.remove(path, { force: true }, context);
			throw error;
		} finally {
			this.pending.delete(key);
		}
	}

	close(_context: Context): Promise<void> {
		this.closed = true;
		return Promise.resolve();
	}

	private async readMetadata(file: FileInfo, context: Context): Promise<JsonlSessionMetadata | undefined> {
		const lines = fileValue(
			await this.fs.readTextLines(file.path, { maxLines: 1 }, context),
			`Failed to read session header ${file.path}`,
		);
		if (lines[0] === undefined) return undefined;
		const parsed = parseJsonlSessionHeader(lines[0]);
		if (!parsed.ok) return undefined;
		if (parsed.value.format === "v3-legacy") {
			const legacy = await legacyMetadata(this.fs, parsed.value.header as Record<string, unknown>, context);
			return { ...legacy, path: file.path, modifiedAt: file.mtimeMs };
		}
		return metadataOf(parsed.value.header, file.path, file.mtimeMs);
	}

	private async directory(cwd: string, context: Context): Promise<string> {
		const root = await this.root(context);
		return fileValue(
			await this.fs.joinPath([root, directoryName(cwd)], context),
			`Failed to resolve sessions directory for ${cwd}`,
		);
	}

	private async newSessionPath(cwd: string, createdAt: number, id: string, context: Context): Promise<string> {
		const directory = await this.directory(cwd, context);
		if (fileValue(await this.fs.exists(directory, context), `Failed to check sessions directory ${directory}`)) {
			const suffix = `_${encodeURIComponent(id)}.jsonl`;
			const entries = fileValue(
				await this.fs.listDir(directory, context),
				`Failed to list sessions directory ${directory}`,
			);
			if (entries.some((entry) => entry.kind !== "directory" && entry.name.endsWith(suffix)))
				throw new Error(`Session already exists: ${id}`);
		}
		fileValue(
			await this.fs.createDir(directory, undefined, context),
			`Failed to create sessions directory ${directory}`,
		);
		return fileValue(
			await this.fs.joinPath([directory, fileName(createdAt, id)], context),
			`Failed to resolve path for session ${id}`,
		);
	}

	private publish(metadata: JsonlSessionMetadata, storage: JsonlStorage, key: string): Session<JsonlSessionMetadata> {
		if (this.openSessions.has(key)) throw new Error(`Session is already open: ${metadata.id}`);
		const session = new StorageBackedSession(metadata, storage, {
			onClose: () => {
				if (this.openSessions.get(key) === storage) this.openSessions.delete(key);
			},
		});
		this.openSessions.set(key, storage);
		return session;
	}

	private async root(context: Context): Promise<string> {
		return fileValue(
			await this.fs.absolutePath(this.rootInput, context),
			`Failed to resolve sessions root ${this.rootInput}`,
		);
	}

	private checkOpen(): void {
		if (this.closed) throw new Error("JsonlSessionRepo is closed");
	}
}
