/**
 * AWS's shared files, `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` /
 * `AWS_CONFIG_FILE`), read as the AWS SDKs read them: INI sections (`[name]` in credentials, `[default]` /
 * `[profile name]` / `[sso-session name]` in config), `key = value` lines, `#`/`;` comments, indented sub-keys
 * under an empty value (`s3 =` then `  max_concurrency = 2` → `s3.max_concurrency`). A profile's settings merge
 * both files, the credentials file winning. A line that is none of these is an `AwsConfigError` naming the file and
 * line; the values themselves are never quoted in errors.
 */
import { join } from "node:path";
import { fsPromises, os } from "../../util/index.ts";
import type { EnvLookup } from "./credentials.ts";

export type Section = Record<string, string>;

export class AwsConfigError extends Error {
	override name = "AwsConfigError";
}

export interface SharedFiles {
	credentialsPath: string;
	configPath: string;
	/** Profiles from both files (credentials-file keys win). */
	profiles: Record<string, Section>;
	/** `[sso-session name]` sections of the config file. */
	ssoSessions: Record<string, Section>;
}

export function awsHome(env: EnvLookup): string {
	return env.HOME || os().homedir();
}

function resolvePath(path: string, env: EnvLookup): string {
	return path.startsWith("~/") ? join(awsHome(env), path.slice(2)) : path;
}

/** Parses INI text into sections; `file` names the source in errors. */
export function parseIni(text: string, file: string): Record<string, Section> {
	const sections: Record<string, Section> = {};
	let current: Section | undefined;
	let parentKey: string | undefined;
	const lines = text.split(/\r?\n/);
	for (const [i, raw] of lines.entries()) {
		const line = raw.split(/(?:^|\s)[;#]/)[0] ?? "";
		if (line.trim() === "") continue;
		const header = /^\s*\[([^\]]*)\]\s*$/.exec(line);
		if (header) {
			const name = (header[1] ?? "").trim();
			sections[name] ??= {};
			current = sections[name];
			parentKey = undefined;
			continue;
		}
		const eq = line.indexOf("=");
		if (eq < 0) throw new AwsConfigError(`${file} line ${i + 1}: expected "key = value" or a [section] header`);
		if (!current) throw new AwsConfigError(`${file} line ${i + 1}: setting outside any [section]`);
		const key = line.slice(0, eq).trim().toLowerCase();
		const value = line.slice(eq + 1).trim();
		if (key === "") throw new AwsConfigError(`${file} line ${i + 1}: setting without a name`);
		const indented = /^\s/.test(line);
		if (indented && parentKey !== undefined) current[`${parentKey}.${key}`] = value;
		else {
			current[key] = value;
			parentKey = value === "" ? key : undefined;
		}
	}
	return sections;
}

async function readIfPresent(path: string): Promise<string | undefined> {
	try {
		return await fsPromises().readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR")
			return undefined;
		throw new AwsConfigError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
	}
}

/** Reads both shared files (a missing file is empty). */
export async function loadSharedFiles(env: EnvLookup): Promise<SharedFiles> {
	const credentialsPath = resolvePath(env.AWS_SHARED_CREDENTIALS_FILE || "~/.aws/credentials", env);
	const configPath = resolvePath(env.AWS_CONFIG_FILE || "~/.aws/config", env);
	const profiles: Record<string, Section> = {};
	const ssoSessions: Record<string, Section> = {};
	const configText = await readIfPresent(configPath);
	if (configText !== undefined) {
		for (const [name, section] of Object.entries(parseIni(configText, configPath))) {
			const prefixed = /^(profile|sso-session)\s+(.+)$/.exec(name);
			if (name === "default") profiles.default = { ...profiles.default, ...section };
			else if (prefixed?.[1] === "profile") {
				const profile = (prefixed[2] ?? "").trim();
				profiles[profile] = { ...profiles[profile], ...section };
			} else if (prefixed?.[1] === "sso-session") ssoSessions[(prefixed[2] ?? "").trim()] = section;
		}
	}
	const credentialsText = await readIfPresent(credentialsPath);
	if (credentialsText !== undefined) {
		for (const [name, section] of Object.entries(parseIni(credentialsText, credentialsPath))) {
			profiles[name] = { ...profiles[name], ...section };
		}
	}
	return { credentialsPath, configPath, profiles, ssoSessions };
}

/** Which file(s) a profile's setting can come from, for error messages. */
export function profileSource(files: SharedFiles, profile: string): string {
	return `profile "${profile}" (${files.credentialsPath} / ${files.configPath})`;
}
