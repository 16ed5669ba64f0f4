/**
 * What `/llama` does, over a `LlamaScreen`: show the router's models; selecting an unloaded one loads it (first
 * asking, when others are loaded, whether to unload them or keep them — never silently), a loaded one unloads it
 * after a yes, "Download model…" searches Hugging Face, warns about gated repositories, asks for a quantization
 * and lets the router download it. After every action the catalogue is read again (the router may be shared), the
 * llama.cpp models of `/model` follow it and are cached. A router that cannot be reached offers Retry and Close;
 * Retry reads the state again and does not replay what was interrupted. The router is asked even with
 * `PI_OFFLINE` (the user asked for it by opening `/llama`).
 */
import type { AuthStorage, LlamaModule, ModelRegistry, RouterModel } from "../../../ai/index.ts";
import { runWithProgress } from "./progress.ts";
import type { LlamaScreen } from "./view.ts";

type NotifyType = "info" | "warning" | "error";
type Client = InstanceType<LlamaModule["RouterClient"]>;
type Connection = NonNullable<ReturnType<LlamaModule["llamaConnection"]>>;

export interface LlamaFlowDeps {
	llama: LlamaModule;
	registry: ModelRegistry;
	authStorage: AuthStorage;
	agentDir: string;
	env: Record<string, string | undefined>;
	notify(message: string, type?: NotifyType): void;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The router to talk to, or undefined (after saying how to configure one). */
export function configuredRouter(deps: LlamaFlowDeps): { client: Client; connection: Connection } | undefined {
	const connection = deps.llama.llamaConnection(deps.authStorage, deps.env);
	if (!connection) {
		deps.notify(`Configure llama.cpp with /login ${deps.llama.LLAMA_PROVIDER_ID}`, "warning");
		return undefined;
	}
	return { client: new deps.llama.RouterClient(connection.serverUrl, connection.apiKey), connection };
}

export async function runLlamaFlow(
	deps: LlamaFlowDeps,
	screen: LlamaScreen,
	router: { client: Client; connection: Connection },
): Promise<void> {
	const { llama } = deps;
	const { client, connection } = router;
	const sync = async (catalog?: RouterModel[]) =>
		llama.refreshLlamaModels(deps.registry, client, connection, {
			agentDir: deps.agentDir,
			signal: AbortSignal.timeout(15_000),
			env: deps.env,
			...(catalog ? { catalog } : {}),
		});
	const readCatalog = async (): Promise<RouterModel[] | undefined> => {
		for (;;) {
			try {
				return await sync();
			} catch (error) {
				const message = llama.isConnectionError(error) ? "Could not connect to the server." : errorText(error);
				if ((await screen.connectionError(client.serverUrl, message)) === "close") return undefined;
			}
		}
	};

	const load = async (catalog: RouterModel[], target: RouterModel) => {
		const others = catalog.filter((m) => m.id !== target.id && llama.isLoaded(m));
		let replace = false;
		if (others.length > 0) {
			const title = `${others.length} model${others.length === 1 ? " is" : "s are"} loaded`;
			const choice = await screen.select(title, ["Unload all and load", "Keep loaded and load", "Cancel"]);
			if (!choice || choice === "Cancel") return;
			replace = choice === "Unload all and load";
		}
		const restore = async () => {
			deps.notify("Restoring previously loaded models");
			for (const m of others) await llama.loadAndWait(client, m.id, () => {});
			await sync();
		};
		if (replace) for (const m of others) await llama.unloadAndWait(client, m.id);
		try {
			const outcome = await runWithProgress(screen, {
				title: "Loading model",
				model: target.id,
				cancelTitle: "Stop loading?",
				run: (signal, update) => llama.loadAndWait(client, target.id, update, signal),
				cancel: () => client.unload(target.id),
			});
			if (outcome.cancelled) {
				if (replace) await restore();
				return;
			}
			const after = (await sync()).find((m) => m.id === target.id);
			deps.notify(after?.status.value === "loaded" ? `Loaded ${target.id}` : `Load started for ${target.id}`);
		} catch (error) {
			if (replace) await restore().catch(() => {});
			throw error;
		}
	};

	const unload = async (model: RouterModel) => {
		if (!(await screen.confirm("Unload model?", model.id))) return;
		await llama.unloadAndWait(client, model.id);
		await sync();
		deps.notify(`Unloaded ${model.id}`);
	};

	const download = async () => {
		const hub = new llama.HubClient(await llama.findHubToken(deps.env), llama.hubUrl(deps.env));
		const chosen = await screen.searchModels((query, signal) => hub.search(query, signal));
		if (!chosen) return;
		const reference = llama.parseHubReference(chosen);
		screen.showStatus("Loading model details", reference.repository);
		const details = await hub.details(reference.repository);
		if (details.gated) {
			const rule = details.gated === "manual" ? "Manual approval is required" : "Accept the access terms";
			const title = `Hugging Face access required\n${details.id}\n\n${rule} at:\nhttps://huggingface.co/${details.id}\n\nThe llama.cpp server needs HF_TOKEN with access.`;
			if ((await screen.select(title, ["Continue", "Back"])) !== "Continue") return;
		}
		let quantization = reference.quantization;
		if (!quantization && details.quantizations.length > 0) {
			const labels = details.quantizations.map((q) => {
				const size = q.size === undefined ? undefined : llama.formatBytes(q.size);
				const extra = [size, q.name === "Q4_K_M" ? "recommended" : undefined].filter(Boolean).join(" · ");
				return extra ? `${q.name} · ${extra}` : q.name;
			});
			const label = await screen.select(`Select quantization\n${details.id}`, labels);
			if (!label) return;
			quantization = details.quantizations[labels.indexOf(label)]?.name;
			if (!quantization) return;
		}
		const model = quantization ? `${details.id}:${quantization}` : details.id;
		const outcome = await runWithProgress(screen, {
			title: "Downloading model",
			model,
			cancelTitle: "Stop download?",
			run: (signal, update) => llama.downloadAndWait(client, model, update, signal),
			cancel: () => client.unload(model),
		});
		if (outcome.cancelled) return;
		await sync(outcome.value);
		deps.notify(`Downloaded ${model}`);
	};

	let catalog = await readCatalog();
	while (catalog) {
		const action = await screen.showModels(client.serverUrl, catalog);
		if (action.type === "close") return;
		let failure: unknown;
		try {
			if (action.type === "download") await download();
			else if (llama.isLoaded(action.model)) await unload(action.model);
			else if (action.model.status.value === "unloaded") await load(catalog, action.model);
			else deps.notify(`${action.model.id} is ${action.model.status.value}`, "warning");
		} catch (error) {
			failure = error;
		}
		catalog = await readCatalog();
		if (catalog && failure !== undefined && !llama.isConnectionError(failure)) deps.notify(errorText(failure), "error");
	}
}
