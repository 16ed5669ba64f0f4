/** Shared shapes of the resources layer (names follow pi 0.87.1 where extensions can see them). */

/** Which configuration a resource came from. */
export type SourceScope = "user" | "project" | "temporary";
export type SourceOrigin = "package" | "top-level";

export interface SourceInfo {
	path: string;
	/** `auto` (conventional folder), `local` (settings entry), `cli`, or `extension:<path>`. */
	source: string;
	scope: SourceScope;
	origin: SourceOrigin;
	baseDir?: string;
}

export type ResourceType = "extension" | "skill" | "prompt" | "theme";

export interface ResourceCollision {
	resourceType: ResourceType;
	name: string;
	winnerPath: string;
	loserPath: string;
	winnerSource?: string;
	loserSource?: string;
}

export interface ResourceDiagnostic {
	type: "warning" | "error" | "collision";
	message: string;
	path?: string;
	collision?: ResourceCollision;
}

/** One diagnostic as a single line for the terminal. */
export function formatResourceDiagnostic(d: ResourceDiagnostic): string {
	const where = d.path ? `${d.path}: ` : "";
	const label = d.type === "collision" ? "warning" : d.type;
	return `${label}: ${where}${d.message}`;
}

export interface Skill {
	name: string;
	description: string;
	/** The SKILL.md (or standalone .md) file. */
	filePath: string;
	/** Folder that relative references in the skill resolve from. */
	baseDir: string;
	sourceInfo: SourceInfo;
	/** `disable-model-invocation: true`: left out of the system prompt, still usable as `/skill:name`. */
	disableModelInvocation: boolean;
	license?: string;
	compatibility?: string;
	metadata?: Record<string, unknown>;
	allowedTools?: string[];
}

export interface PromptTemplate {
	name: string;
	description: string;
	argumentHint?: string;
	/** The body with its frontmatter removed. */
	content: string;
	sourceInfo: SourceInfo;
	filePath: string;
}

/** A file found for a resource type, before it is parsed. */
export interface ResourceCandidate {
	path: string;
	sourceInfo: SourceInfo;
	/** Only with `DiscoveryOptions.includeDisabled`: a file a settings pattern turns off. */
	disabled?: true;
}

/** Extra resource paths returned by an extension's `resources_discover` handler. */
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

export interface ContextFile {
	path: string;
	content: string;
}
