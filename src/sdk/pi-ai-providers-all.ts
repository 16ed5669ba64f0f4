/**
 * `pi-ai/providers/all`: every built-in provider. Importing this module registers the built-in API
 * implementations (they are registered by the LLM layer itself, so this is also true without it) and offers
 * pi 0.87's catalogue reads under their `getBuiltin*` names.
 */
import { getModel, getModels, getProviders } from "../ai/index.ts";

export const getBuiltinModel = getModel;
export const getBuiltinModels = getModels;
export const getBuiltinProviders = getProviders;
export {
	builtinImagesModels,
	builtinImagesProviders,
	builtinModels,
	builtinProviders,
	getBuiltinModelDataGeneratedAt,
	type RadiusProviderOptions,
	radiusProvider,
} from "../ai/index.ts";
