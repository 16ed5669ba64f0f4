/**
 * Runtime exports of `pi-coding-agent` that this SDK provides in pi 0.87.1's form: each exists in ours and in
 * pi's, with the same kind (function, class, value). The full list of pi's exports is checked elsewhere as the
 * remaining ones (interactive components, themes, compaction, package manager) arrive.
 */
import { expect, test } from "bun:test";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

const COVERED = [
	"CONFIG_DIR_NAME",
	"CredentialSynchronizationError",
	"DefaultResourceLoader",
	"ModelRegistry",
	"ModelRuntime",
	"ProjectTrustStore",
	"SettingsManager",
	"copyToClipboard",
	"createAgentSessionServices",
	"createBashTool",
	"createBashToolDefinition",
	"createCodingTools",
	"createEditTool",
	"createEditToolDefinition",
	"createExtensionRuntime",
	"createFindTool",
	"createFindToolDefinition",
	"createGrepTool",
	"createGrepToolDefinition",
	"createLocalBashOperations",
	"createLocalPowerShellOperations",
	"createLsTool",
	"createLsToolDefinition",
	"createPowerShellTool",
	"createPowerShellToolDefinition",
	"createReadOnlyTools",
	"createReadTool",
	"createReadToolDefinition",
	"createSyntheticSourceInfo",
	"createWriteTool",
	"createWriteToolDefinition",
	"detectSupportedImageMimeTypeFromFile",
	"discoverAndLoadExtensions",
	"formatDimensionNote",
	"formatSkillsForPrompt",
	"generateDiffString",
	"generateUnifiedPatch",
	"getAgentDir",
	"getDocsPath",
	"getExamplesPath",
	"getPackageDir",
	"getPowerShellConfig",
	"getReadmePath",
	"getShellConfig",
	"hasTrustRequiringProjectResources",
	"loadProjectContextFiles",
	"loadSkills",
	"loadSkillsFromDir",
	"parseSkillBlock",
	"readStoredCredential",
	"resolveCliModel",
	"resolveModelScopeWithDiagnostics",
	"truncateToVisualLines",
	"wrapRegisteredTool",
	"wrapRegisteredTools",
];

const kind = (value: unknown) =>
	typeof value === "function"
		? /^class[\s{]/.test(Function.prototype.toString.call(value))
			? "class"
			: "function"
		: typeof value;

test("pi 0.87.1's SDK names covered here exist in ours with the same kind", () => {
	const mine = Object.fromEntries(COVERED.map((name) => [name, kind((ours as Record<string, unknown>)[name])]));
	for (const [name, k] of Object.entries(mine)) expect(`${name}: ${k}`).not.toBe(`${name}: undefined`);
	const pi = piReference("coding-agent-exports");
	if (!pi) return;
	const theirs = pi.run<Record<string, string>>(
		`const kind = (v) => typeof v === "function" ? (/^class[\\s{]/.test(Function.prototype.toString.call(v)) ? "class" : "function") : typeof v;
		return Object.fromEntries(args.map((n) => [n, kind(pi[n])]));`,
		COVERED,
	);
	// Our classes may be written as functions by the bundler; compare "callable" for those.
	const callable = (k: string) => (k === "class" || k === "function" ? "callable" : k);
	expect(Object.fromEntries(Object.entries(mine).map(([n, k]) => [n, callable(k)]))).toEqual(
		Object.fromEntries(Object.entries(theirs).map(([n, k]) => [n, callable(k)])),
	);
}, 60_000);

test("the dialogs and the footer it exports are the ones drawn side by side with pi's", async () => {
	// interactive-dialogs-parity and interactive-chrome-parity compare these classes with pi 0.87.1's.
	const interactive = await import("../../../src/modes/interactive/index.ts");
	const chrome = await import("../../../src/modes/interactive/chrome/index.ts");
	expect(ours.ExtensionSelectorComponent).toBe(interactive.ExtensionSelectorComponent);
	expect(ours.ExtensionInputComponent).toBe(interactive.ExtensionInputComponent);
	expect(ours.ExtensionEditorComponent).toBe(interactive.ExtensionEditorComponent);
	expect(ours.FooterComponent).toBe(chrome.FooterComponent);
});
