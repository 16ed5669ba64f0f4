/** pi-agent-core telemetry: the span of one AI request. */
import { defineTelemetrySchema } from "../telemetry.ts";

export const AI_TELEMETRY_SCHEMA = defineTelemetrySchema({
	version: 1,
	spans: {
		"pi.ai.request": {
			description: "A single logical call to an AI provider",
			parents: {
				kind: "any",
			},
			startAttributes: {
				"pi.ai.operation": {
					type: "string",
					required: true,
					values: ["stream", "fetch_deferred", "cancel_deferred", "generate_images"],
					description: "Which provider operation ran",
				},
				"pi.ai.provider": {
					type: "string",
					required: true,
					description: "Id of the provider used",
				},
				"pi.ai.model": {
					type: "string",
					required: true,
					description: "Id of the model asked for",
				},
				"pi.ai.api": {
					type: "string",
					required: true,
					description: "Id of the provider API",
				},
				"pi.ai.streaming": {
					type: "boolean",
					required: true,
					description: "Whether the operation streams its result",
				},
				"pi.ai.deferred": {
					type: "boolean",
					required: false,
					description: "Whether deferred (asynchronous) generation is involved",
				},
			},
			endAttributes: {
				"pi.ai.response.model": {
					type: "string",
					description: "Model that actually answered",
				},
				"pi.ai.response.id": {
					type: "string",
					cardinality: "high",
					description: "Response id the provider gave",
				},
				"pi.ai.response.stop_reason": {
					type: "string",
					values: ["stop", "length", "tool_use", "error", "aborted", "deferred"],
					description: "Why the response ended, normalised",
				},
				"pi.ai.http.status_code": {
					type: "number",
					description: "HTTP status of the last response",
				},
				"pi.ai.usage.input_tokens": {
					type: "number",
					description: "Input tokens the provider reported",
				},
				"pi.ai.usage.output_tokens": {
					type: "number",
					description: "Output tokens the provider reported",
				},
				"pi.ai.usage.cache_read_tokens": {
					type: "number",
					description: "Tokens read from the prompt cache",
				},
				"pi.ai.usage.cache_write_tokens": {
					type: "number",
					description: "Tokens written to the prompt cache",
				},
				"pi.ai.usage.reasoning_tokens": {
					type: "number",
					description: "Reasoning tokens the provider reported",
				},
				"pi.ai.usage.total_tokens": {
					type: "number",
					description: "All tokens the provider reported",
				},
				"pi.ai.usage.cost": {
					type: "number",
					description: "Total cost the usage amounts to",
				},
				"pi.ai.stream.chunk_count": {
					type: "number",
					description: "How many update chunks were streamed",
				},
				"pi.ai.stream.time_to_first_chunk_ms": {
					type: "number",
					description: "Milliseconds until the first streamed chunk",
				},
				"pi.ai.error.type": {
					type: "string",
					cardinality: "low",
					description: "Class of the provider or transport failure",
				},
			},
			status: {
				default: "ok",
				errorWhen: "The call throws or its result is an error",
			},
		},
	},
} as const);
