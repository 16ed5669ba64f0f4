/**
 * The ChatGPT backend's Codex endpoint (`…/codex/responses`): the OpenAI Responses stream (same frames as
 * openai-responses.ts), with the backend's error bodies: a 429 is a usage limit (`error.type`
 * "usage_limit_reached", the plan and the reset time in epoch seconds, one hour ahead), other errors are
 * `{"detail": <message>}`. In-stream failures (context overflow, rate limits) are `response.failed` events: see
 * `codexFailedStream`. Requests with `content-encoding: zstd` are decompressed by the server before recording.
 */
import { openaiResponsesFormat } from "./openai-responses.ts";
import { sseFrame, type VendorFormat } from "./types.ts";

export const openaiCodexFormat: VendorFormat = {
	renderReply: openaiResponsesFormat.renderReply,
	errorBody: (status, message) =>
		status === 429
			? {
					error: {
						type: "usage_limit_reached",
						message,
						plan_type: "plus",
						resets_at: Math.floor(Date.now() / 1000) + 3600,
					},
				}
			: { detail: message },
};

/** A stream that fails in flight the way the backend reports it: `response.created`, then `response.failed`. */
export function codexFailedStream(code: string, message: string): string {
	const response = { id: "resp_mock_failed", object: "response", status: "in_progress", output: [], usage: null };
	return [
		sseFrame({ type: "response.created", response, sequence_number: 0 }, "response.created"),
		sseFrame(
			{
				type: "response.failed",
				response: { ...response, status: "failed", error: { code, message } },
				sequence_number: 1,
			},
			"response.failed",
		),
	].join("");
}

/** An unsigned JWT shaped like a ChatGPT access token, carrying `accountId` in the OpenAI auth claim. */
export function codexToken(accountId: string, extra: Record<string, unknown> = {}): string {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
	const payload = { "https://api.openai.com/auth": { chatgpt_account_id: accountId }, exp: 4102444800, ...extra };
	return `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.c2lnbmF0dXJl`;
}
