/**
 * The `/llama` flow over a scripted screen (no terminal) and the router stand-in: "Unload all and load" unloads the
 * others first and, when the load is then stopped (Escape → Yes), loads them again; "No" to "Stop loading?" keeps
 * waiting; a model that fails to load is reported after the list is read again; a gated repository warns first
 * and "Back" downloads nothing; no router configured says how to configure one.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { AuthStorage, loadLlama, ModelRegistry, type RouterModel } from "../../../src/ai/index.ts";
import { configuredRouter, type LlamaFlowDeps, runLlamaFlow } from "../../../src/modes/interactive/llama/flow.ts";
import type { LlamaScreen, ModelsAction, ProgressState } from "../../../src/modes/interactive/llama/view.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import { type LlamaRouterStandIn, startLlamaRouter } from "../../support/llama-router.ts";

const llama = await loadLlama();
const routers: LlamaRouterStandIn[] = [];
afterEach(() => {
	for (const r of routers.splice(0)) r.stop();
});

type Step =
	| { models: (list: RouterModel[]) => ModelsAction }
	| { select: string; answer: string | undefined }
	| { confirm: string; answer: boolean }
	| { search: string }
	| { stopWhen: (state: ProgressState) => boolean };

/** A screen that answers each request with the next scripted step (and records what it was shown). */
function scripted(steps: Step[]) {
	const log: string[] = [];
	const next = <T extends Step>(kind: string): T => {
		const step = steps.shift();
		if (!step || !(kind in step)) throw new Error(`screen asked for ${kind}, script has ${JSON.stringify(step)}`);
		return step as T;
	};
	let stop: (() => void) | undefined;
	let stopWhen: ((s: ProgressState) => boolean) | undefined;
	const screen: LlamaScreen = {
		async showModels(_url, models) {
			log.push(`models: ${models.map((m) => `${m.id}=${m.status.value}`).join(" ")}`);
			if (steps.length === 0) return { type: "close" };
			return next<{ models: (l: RouterModel[]) => ModelsAction }>("models").models(models);
		},
		async select(title, options) {
			log.push(`select: ${title.split("\n")[0]} [${options.join("|")}]`);
			const step = next<{ select: string; answer: string | undefined }>("select");
			expect(title).toContain(step.select);
			return step.answer;
		},
		async confirm(title, message) {
			log.push(`confirm: ${title} ${message}`);
			return next<{ confirm: string; answer: boolean }>("confirm").answer;
		},
		async connectionError(_url, message) {
			log.push(`unavailable: ${message}`);
			return "close";
		},
		async searchModels(search) {
			const step = next<{ search: string }>("search");
			const hits = await search(step.search, new AbortController().signal);
			return hits[0]?.id;
		},
		showStatus(title, message) {
			log.push(`status: ${title} ${message}`);
		},
		progress(state) {
			if (!stopWhen && steps[0] && "stopWhen" in steps[0])
				stopWhen = next<{ stopWhen: (s: ProgressState) => boolean }>("stopWhen").stopWhen;
			return new Promise((resolve) => {
				stop = resolve;
				screen.updateProgress(state);
			});
		},
		updateProgress(state) {
			if (stopWhen?.(state) && stop) {
				const go = stop;
				stop = undefined;
				stopWhen = undefined;
				go();
			}
		},
	};
	return { screen, log };
}

function setup(options: Parameters<typeof startLlamaRouter>[0]) {
	const r = startLlamaRouter({ loadStepMs: 60, ...options });
	routers.push(r);
	const dir = makeTempDir("llama-flow");
	const authStorage = new AuthStorage(join(dir, "auth.json"));
	const registry = new ModelRegistry({ authStorage, builtinModels: () => [] });
	const notes: string[] = [];
	const deps: LlamaFlowDeps = {
		llama,
		registry,
		authStorage,
		agentDir: dir,
		env: { LLAMA_BASE_URL: r.url, HF_ENDPOINT: r.url, HOME: dir },
		notify: (message, type = "info") => notes.push(`${type}: ${message}`),
	};
	return { r, deps, notes, registry };
}

const pick =
	(id: string) =>
	(list: RouterModel[]): ModelsAction => {
		const model = list.find((m) => m.id === id);
		if (!model) throw new Error(`no ${id}`);
		return { type: "model", model };
	};

describe("/llama flow", () => {
	test("unload all and load; a stopped load brings the others back; No keeps waiting", async () => {
		const { r, deps, notes, registry } = setup({
			models: [
				{ id: "a", state: "loaded" },
				{ id: "b", state: "loaded" },
				{ id: "c", nCtx: 2048 },
			],
		});
		const router = configuredRouter(deps);
		if (!router) throw new Error("no router");
		const { screen, log } = scripted([
			{ models: pick("c") },
			{ select: "2 models are loaded", answer: "Unload all and load" },
			{ stopWhen: (s) => s.message.startsWith("Loading ") && s.message !== "Loading model" },
			{ confirm: "Stop loading?", answer: true },
			{ models: pick("c") },
			{ select: "2 models are loaded", answer: "Unload all and load" },
			{ stopWhen: (s) => s.message.startsWith("Loading ") && s.message !== "Loading model" },
			{ confirm: "Stop loading?", answer: false },
		]);
		await runLlamaFlow(deps, screen, router);
		expect(notes).toEqual(["info: Restoring previously loaded models", "info: Loaded c"]);
		expect(log.at(-1)).toBe("models: a=unloaded b=unloaded c=loaded");
		const unloads = r.requests
			.filter((q) => q.path === "/models/unload")
			.map((q) => (q.body as { model: string }).model);
		expect(unloads).toEqual(["a", "b", "c", "a", "b"]);
		expect(registry.getModels("llama.cpp").map((m) => [m.id, m.contextWindow])).toEqual([["c", 2048]]);
	});

	test("a failing load is reported after the list is read again; unloading asks first", async () => {
		const { deps, notes } = setup({
			models: [
				{ id: "bad", failsToLoad: true },
				{ id: "up", state: "loaded" },
			],
		});
		const router = configuredRouter(deps);
		if (!router) throw new Error("no router");
		const { screen, log } = scripted([
			{ models: pick("bad") },
			{ select: "1 model is loaded", answer: "Keep loaded and load" },
			{ models: pick("up") },
			{ confirm: "Unload model?", answer: false },
			{ models: pick("up") },
			{ confirm: "Unload model?", answer: true },
		]);
		await runLlamaFlow(deps, screen, router);
		expect(notes).toEqual(["error: Model exited with code 1", "info: Unloaded up"]);
		expect(log.filter((l) => l.startsWith("confirm"))).toEqual([
			"confirm: Unload model? up",
			"confirm: Unload model? up",
		]);
	});

	test("a gated repository warns first; Back downloads nothing; no router says how to configure one", async () => {
		const { r, deps, notes } = setup({
			hub: [{ id: "org/Gated-GGUF", downloads: 3, gated: "manual", files: [{ name: "g-Q4_K_M.gguf", size: 10 }] }],
		});
		const router = configuredRouter(deps);
		if (!router) throw new Error("no router");
		const { screen, log } = scripted([
			{ models: () => ({ type: "download" }) },
			{ search: "gated" },
			{ select: "Hugging Face access required", answer: "Back" },
		]);
		await runLlamaFlow(deps, screen, router);
		expect(log).toContain("status: Loading model details org/Gated-GGUF");
		expect(r.downloadStarts).toEqual([]);
		expect(notes).toEqual([]);
		const none = { ...deps, env: {}, authStorage: new AuthStorage(join(deps.agentDir, "none.json")) };
		expect(configuredRouter(none)).toBeUndefined();
		expect(notes).toEqual(["warning: Configure llama.cpp with /login llama.cpp"]);
	});
});
