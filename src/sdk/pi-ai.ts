/**
 * `@mariozechner/pi-ai` / `@earendil-works/pi-ai` (and `/compat`, which pi 0.87.1 also serves for the root): the
 * LLM layer as extensions and SDK users see it — types, `stream`/`complete`/`streamSimple`/`completeSimple`, the
 * API registry, providers, the model catalogue, `createModels`/`createProvider` collections with provider auth,
 * credentials helpers, error classification and retry, stream frames, the faux provider, tool-call validation,
 * and TypeBox 1.x's `Type` with `StringEnum` (TypeBox loads on first use).
 */

export type { Static, TSchema } from "typebox";
export * from "../ai/index.ts";
export {
	AssistantMessageEventStreamImpl as AssistantMessageEventStream,
	getEnvApiKeyWithOverlay as getEnvApiKey,
} from "../ai/index.ts";
export { uuidv7 } from "../util/index.ts";
