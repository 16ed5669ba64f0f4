/**
 * The telemetry vocabulary of pi-agent-core: span names, their parents, start and end attributes (type, whether
 * required, allowed values, cardinality) and when a span counts as failed. Plain data for documentation and typed
 * span starters (`createTypedSpanStarter(ctx, AGENT_TELEMETRY_SCHEMAS)`); nothing validates at run time.
 */
import { defineTelemetrySchema } from "../telemetry.ts";
import { AI_TELEMETRY_SCHEMA } from "./ai.ts";
import { OPERATION_SPANS } from "./operation-spans.ts";
import { WORK_SPANS } from "./work-spans.ts";

export { AI_TELEMETRY_SCHEMA } from "./ai.ts";

export const HARNESS_TELEMETRY_SCHEMA = defineTelemetrySchema({
	version: 1,
	spans: { ...OPERATION_SPANS, ...WORK_SPANS },
} as const);

/** Both vocabularies, for a typed span starter over AI requests and harness work. */
export const AGENT_TELEMETRY_SCHEMAS = [AI_TELEMETRY_SCHEMA, HARNESS_TELEMETRY_SCHEMA] as const;
