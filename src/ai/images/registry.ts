/**
 * Image generation through a global registry (pi-ai 0.87.1's compat surface): implementations by `api` id,
 * `generateImages` dispatching on `model.api`, and the built-in image model list (OpenRouter's), read from its
 * embedded file the first time it is asked for.
 */
import { readFileSync } from "../../util/index.ts";
import type { AssistantImages, ImagesContext, ImagesModel, ImagesOptions } from "../collection/images.ts";
import catalogFile from "./catalog.json" with { type: "file" };
import { generateImagesOpenRouter } from "./openrouter.ts";

export type ImagesFunction = (
	model: ImagesModel,
	context: ImagesContext,
	options?: ImagesOptions,
) => Promise<AssistantImages>;

export interface ImagesApiProvider {
	api: string;
	generateImages: ImagesFunction;
}

const registry = new Map<string, { provider: ImagesApiProvider; sourceId?: string }>();

/** Adds or replaces the implementation of `provider.api`; it refuses models of another api. */
export function registerImagesApiProvider(provider: ImagesApiProvider, sourceId?: string): void {
	const generate: ImagesFunction = (model, context, options) => {
		if (model.api !== provider.api) throw new Error(`Mismatched api: ${model.api} expected ${provider.api}`);
		return provider.generateImages(model, context, options);
	};
	registry.set(provider.api, { provider: { api: provider.api, generateImages: generate }, sourceId });
}

export function getImagesApiProvider(api: string): ImagesApiProvider | undefined {
	return registry.get(api)?.provider;
}

/** Generates with the implementation registered for `model.api`; throws when there is none. */
export async function generateImages(
	model: ImagesModel,
	context: ImagesContext,
	options?: ImagesOptions,
): Promise<AssistantImages> {
	const provider = getImagesApiProvider(model.api);
	if (!provider) throw new Error(`No API provider registered for api: ${model.api}`);
	return provider.generateImages(model, context, options);
}

export function registerBuiltInImagesApiProviders(): void {
	registerImagesApiProvider({ api: "openrouter-images", generateImages: generateImagesOpenRouter });
}

registerBuiltInImagesApiProviders();

let catalog: Map<string, Map<string, ImagesModel>> | undefined;

function imageCatalog(): Map<string, Map<string, ImagesModel>> {
	if (!catalog) {
		const data = JSON.parse(readFileSync(catalogFile as unknown as string, "utf8")) as Record<
			string,
			Record<string, ImagesModel>
		>;
		catalog = new Map(Object.entries(data).map(([provider, models]) => [provider, new Map(Object.entries(models))]));
	}
	return catalog;
}

export function getImageModel(provider: string, modelId: string): ImagesModel | undefined {
	return imageCatalog().get(provider)?.get(modelId);
}

export function getImageProviders(): string[] {
	return [...imageCatalog().keys()];
}

export function getImageModels(provider: string): ImagesModel[] {
	return [...(imageCatalog().get(provider)?.values() ?? [])];
}
