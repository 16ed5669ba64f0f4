/** `pi-ai/models`: lookups over the built-in model catalogue. */
export {
	calculateCost,
	findModels,
	getModel,
	getModels,
	getProviders,
	getSupportedThinkingLevels,
	modelsAreEqual,
	supportsXhigh,
} from "../ai/index.ts";
