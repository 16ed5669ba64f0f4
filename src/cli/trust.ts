/**
 * Whether this run may load the project's own `.pi` resources (extensions, skills, prompts, themes, settings,
 * SYSTEM.md): `--approve`/`--no-approve`, then a `project_trust` handler of a user or `-e` extension, then the
 * decision saved in `<agentDir>/trust.json`, then settings `defaultProjectTrust`. Print and JSON runs never ask:
 * without a decision the project's resources are skipped, and the user is told once how to load them.
 */
import type { SettingsStore } from "../config/index.ts";
import { createExtensionRunner, createNoopUi } from "../extensions/index.ts";
import {
	decideProjectTrust,
	hasProtectedProjectResources,
	ProjectTrustStore,
	type ProjectTrustUpdate,
	TrustStore,
} from "../resources/index.ts";
import type { ExtensionHost } from "../runtime/index.ts";
import type { ParsedArgs } from "./args.ts";

export interface TrustOptions {
	cwd: string;
	agentDir: string;
	args: ParsedArgs;
	host: ExtensionHost;
	store: SettingsStore;
	mode: "print" | "json" | "rpc" | "interactive";
	warn: (text: string) => void;
	/** The interactive mode's question when nothing decides (no saved decision, `defaultProjectTrust` "ask"). */
	ask?: () => Promise<{ trusted: boolean; updates: ProjectTrustUpdate[] }>;
}

export async function decideTrust(options: TrustOptions): Promise<boolean> {
	const { args, cwd } = options;
	const approve = args.flags.get("approve") === true ? true : args.flags.get("no-approve") === true ? false : undefined;
	const hasProtectedResources = hasProtectedProjectResources(cwd);
	if (!hasProtectedResources) return true;
	const trustStore = new TrustStore(options.agentDir);
	const handler = approve === undefined ? await askExtensions(options) : undefined;
	const decision = decideProjectTrust({
		mode: options.mode,
		hasProtectedResources,
		...(approve !== undefined ? { approve } : {}),
		...(handler ? { handlerDecision: handler.trusted } : {}),
		...(trustStore.get(cwd) !== undefined ? { remembered: trustStore.get(cwd) } : {}),
		...(options.store.getScope("global").defaultProjectTrust
			? { defaultProjectTrust: options.store.getScope("global").defaultProjectTrust }
			: {}),
	});
	if (handler?.remember && handler.trusted !== "undecided") await trustStore.set(cwd, handler.trusted === "yes");
	if (decision.trusted === "ask" && options.ask) {
		const answer = await options.ask();
		if (answer.updates.length > 0) {
			try {
				new ProjectTrustStore(options.agentDir).setMany(answer.updates);
			} catch (error) {
				// The answer still holds for this run; only remembering it failed.
				options.warn(`Could not save the trust decision: ${error instanceof Error ? error.message : String(error)}\n`);
			}
		}
		if (!answer.trusted)
			options.warn("This project is not trusted: its .pi resources are skipped. /trust saves a decision.\n");
		return answer.trusted;
	}
	const trusted = decision.trusted === true;
	if (!trusted && approve === undefined && decision.reason !== "saved") {
		options.warn(`Skipping this folder's .pi resources (the project is not trusted); pass --approve to load them\n`);
	}
	return trusted;
}

type HandlerAnswer = { trusted: "yes" | "no" | "undecided"; remember?: boolean };

async function askExtensions(options: TrustOptions): Promise<HandlerAnswer | undefined> {
	const runner = createExtensionRunner(() =>
		options.host.extensions.map((e) => ({ path: e.entry.path, handlers: e.handle.registrations.handlers })),
	);
	if (!runner.hasHandlers("project_trust")) return undefined;
	runner.onError((e) => options.warn(`Extension error (${e.extensionPath}, ${e.event}): ${e.error}\n`));
	const ui = createNoopUi() as never;
	const outcome = await runner.emit(
		"project_trust",
		{ cwd: options.cwd },
		{
			cwd: options.cwd,
			mode: options.mode === "interactive" ? "tui" : options.mode,
			hasUI: false,
			ui,
		},
	);
	return outcome as HandlerAnswer | undefined;
}
