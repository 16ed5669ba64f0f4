/**
 * THE static table of modules that extensions import from the host. Every specifier resolves to a module bundled
 * into the binary, so an extension needs no node_modules for these, and the host copy wins over an extension's
 * own. Both package scopes map to the same modules: `@mariozechner/` (pi ≤ 0.73) and `@earendil-works/` (0.74+).
 */
import * as typebox from "@sinclair/typebox";
import * as typeboxCompiler from "@sinclair/typebox/compiler";
import * as typeboxValue from "@sinclair/typebox/value";
import type { VirtualModuleTable } from "../extensions/index.ts";
import * as agentCore from "./pi-agent-core.ts";
import * as ai from "./pi-ai.ts";
import * as aiCompat from "./pi-ai-compat.ts";
import * as aiModels from "./pi-ai-models.ts";
import * as aiOauth from "./pi-ai-oauth.ts";
import * as aiProvidersAll from "./pi-ai-providers-all.ts";
import * as codingAgent from "./pi-coding-agent.ts";
import * as tui from "./pi-tui.ts";
import * as typeboxCompile from "./typebox-compile.ts";

const piPackages = {
	"pi-coding-agent": codingAgent,
	"pi-agent-core": agentCore,
	"pi-tui": tui,
	"pi-ai": ai,
	"pi-ai/oauth": aiOauth,
	"pi-ai/compat": aiCompat,
	"pi-ai/providers/all": aiProvidersAll,
	"pi-ai/models": aiModels,
} as const;

export const VIRTUAL_MODULES: VirtualModuleTable = {
	"@sinclair/typebox": typebox,
	"@sinclair/typebox/compile": typeboxCompile,
	"@sinclair/typebox/compiler": typeboxCompiler,
	"@sinclair/typebox/value": typeboxValue,
	typebox: typebox,
	"typebox/compile": typeboxCompile,
	"typebox/value": typeboxValue,
	...scoped("@mariozechner/"),
	...scoped("@earendil-works/"),
};

function scoped(scope: string): Record<string, Readonly<Record<string, unknown>>> {
	return Object.fromEntries(Object.entries(piPackages).map(([name, mod]) => [scope + name, mod]));
}

/** Package names (not subpaths) pi provides; an extension listing one in `dependencies` gets a warning. */
export const HOST_PACKAGES: ReadonlySet<string> = new Set(
	Object.keys(VIRTUAL_MODULES).map((specifier) => {
		const parts = specifier.split("/");
		return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
	}),
);
