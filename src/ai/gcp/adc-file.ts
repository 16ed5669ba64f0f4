/**
 * Google Application Default Credentials files, read without a vendor SDK: `GOOGLE_APPLICATION_CREDENTIALS`, else
 * gcloud's well-known file (`~/.config/gcloud/application_default_credentials.json`; `%APPDATA%\gcloud\…` on
 * Windows). Two kinds are understood: a service account key (`type: "service_account"`) and gcloud user
 * credentials (`type: "authorized_user"`). A file that cannot be used fails with one line naming the file and the
 * field; the values themselves (keys, secrets, tokens) never appear in a message.
 */
import { join } from "node:path";
import { existsSync, expandHome, homeDir, readFileSync } from "../../util/index.ts";

export type EnvLookup = Record<string, string | undefined>;

/** Google's OAuth 2.0 token endpoint, used when a credentials file names none. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

export interface ServiceAccountCredentials {
	type: "service_account";
	/** The file the credentials came from (for messages). */
	file: string;
	clientEmail: string;
	/** PKCS#8 PEM. Secret. */
	privateKey: string;
	privateKeyId?: string;
	tokenUri: string;
	projectId?: string;
}

export interface AuthorizedUserCredentials {
	type: "authorized_user";
	file: string;
	clientId: string;
	/** Secret. */
	clientSecret: string;
	/** Secret. */
	refreshToken: string;
	tokenUri: string;
	quotaProjectId?: string;
}

export type GoogleCredentials = ServiceAccountCredentials | AuthorizedUserCredentials;

/** A credentials file that is missing or unusable; the message is one line naming the file (and field). */
export class GoogleCredentialsError extends Error {
	override readonly name = "GoogleCredentialsError";
}

function nonBlank(env: EnvLookup, name: string): string | undefined {
	const value = env[name];
	return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** gcloud's application default credentials file for this user. */
export function wellKnownAdcPath(env: EnvLookup = process.env): string {
	const appData = process.platform === "win32" ? nonBlank(env, "APPDATA") : undefined;
	if (appData) return join(appData, "gcloud", "application_default_credentials.json");
	return join(homeDir(env as NodeJS.ProcessEnv), ".config", "gcloud", "application_default_credentials.json");
}

/** The credentials file in use: `GOOGLE_APPLICATION_CREDENTIALS` when set, else gcloud's well-known file. */
export function adcFilePath(env: EnvLookup = process.env): { path: string; explicit: boolean } {
	const explicit = nonBlank(env, "GOOGLE_APPLICATION_CREDENTIALS");
	return explicit
		? { path: expandHome(explicit, env as NodeJS.ProcessEnv), explicit: true }
		: { path: wellKnownAdcPath(env), explicit: false };
}

/** Whether Application Default Credentials are present (the file exists; its content is checked when used). */
export function hasAdcFile(env: EnvLookup = process.env): boolean {
	return existsSync(adcFilePath(env).path);
}

/** The project named by the environment: `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`. */
export function projectFromEnv(env: EnvLookup = process.env): string | undefined {
	return nonBlank(env, "GOOGLE_CLOUD_PROJECT") ?? nonBlank(env, "GCLOUD_PROJECT");
}

export function locationFromEnv(env: EnvLookup = process.env): string | undefined {
	return nonBlank(env, "GOOGLE_CLOUD_LOCATION");
}

/** Reads and checks the credentials file in use. */
export function loadAdcCredentials(env: EnvLookup = process.env): GoogleCredentials {
	const { path, explicit } = adcFilePath(env);
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") {
			throw new GoogleCredentialsError(
				explicit
					? `Google credentials file ${path} (GOOGLE_APPLICATION_CREDENTIALS) does not exist`
					: `No Google Application Default Credentials: ${path} does not exist; run \`gcloud auth application-default login\` or set GOOGLE_APPLICATION_CREDENTIALS`,
			);
		}
		throw new GoogleCredentialsError(`Google credentials file ${path} cannot be read (${code ?? "read error"})`);
	}
	return parseAdcCredentials(text, path);
}

/** Checks the JSON of a credentials file; `file` names it in messages. */
export function parseAdcCredentials(text: string, file: string): GoogleCredentials {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch {
		// The parser's message may quote the file's content (a key): only the position-free reason is given.
		throw new GoogleCredentialsError(`Google credentials file ${file} is not valid JSON`);
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		throw new GoogleCredentialsError(`Google credentials file ${file} must hold a JSON object`);
	}
	const data = parsed as Record<string, unknown>;
	const field = (name: string, required: boolean): string | undefined => {
		const value = data[name];
		if (value === undefined || value === null || value === "") {
			if (required) throw new GoogleCredentialsError(`Google credentials file ${file}: field "${name}" is missing`);
			return undefined;
		}
		if (typeof value !== "string") {
			throw new GoogleCredentialsError(`Google credentials file ${file}: field "${name}" must be a string`);
		}
		return value;
	};
	const type = field("type", true) as string;
	const tokenUri = checkTokenUri(file, field("token_uri", false));
	if (type === "service_account") {
		const privateKey = field("private_key", true) as string;
		if (!/-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/.test(privateKey)) {
			throw new GoogleCredentialsError(
				`Google credentials file ${file}: field "private_key" is not a PEM "PRIVATE KEY" (PKCS#8) block`,
			);
		}
		const privateKeyId = field("private_key_id", false);
		const projectId = field("project_id", false);
		return {
			type,
			file,
			clientEmail: field("client_email", true) as string,
			privateKey,
			...(privateKeyId ? { privateKeyId } : {}),
			tokenUri,
			...(projectId ? { projectId } : {}),
		};
	}
	if (type === "authorized_user") {
		const quotaProjectId = field("quota_project_id", false);
		return {
			type,
			file,
			clientId: field("client_id", true) as string,
			clientSecret: field("client_secret", true) as string,
			refreshToken: field("refresh_token", true) as string,
			tokenUri,
			...(quotaProjectId ? { quotaProjectId } : {}),
		};
	}
	throw new GoogleCredentialsError(
		`Google credentials file ${file}: field "type" is "${type.slice(0, 40)}"; supported: "service_account", "authorized_user"`,
	);
}

function checkTokenUri(file: string, value: string | undefined): string {
	if (value === undefined) return GOOGLE_TOKEN_URL;
	try {
		const url = new URL(value);
		if (url.protocol === "https:" || url.protocol === "http:") return value;
	} catch {
		// reported below
	}
	throw new GoogleCredentialsError(`Google credentials file ${file}: field "token_uri" is not an http(s) URL`);
}

/** The project a credentials file names, if any (service accounts: `project_id`; users: `quota_project_id`). */
export function projectFromCredentials(credentials: GoogleCredentials): string | undefined {
	return credentials.type === "service_account" ? credentials.projectId : credentials.quotaProjectId;
}
