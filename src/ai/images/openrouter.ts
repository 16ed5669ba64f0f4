/**
 * Image generation on OpenRouter (api "openrouter-images"): one non-streaming chat completion asking for the image
 * modality (and text when the model outputs text); images come back as base64 data URLs. Never rejects: failures
 * are an `AssistantImages` with stop reason "error" (or "aborted").
 */
import type { AssistantImages, ImagesContext, ImagesModel, ImagesOptions } from "../collection/images.ts";
import { joinUrl, postJson } from "../http.ts";
import type { Model, Usage } from "../types.ts";

/** Drops lone UTF-16 surrogates, which servers reject in JSON text. */
function withoutLoneSurrogates(text: string): string {
	return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

function body(model: ImagesModel, context: ImagesContext) {
	const content = context.input.map((item) =>
		item.type === "text"
			? { type: "text", text: withoutLoneSurrogates(item.text) }
			: { type: "image_url", image_url: { url: `data:${item.mimeType};base64,${item.data}` } },
	);
	return {
		model: model.id,
		messages: [{ role: "user", content }],
		stream: false,
		modalities: model.output.includes("text") ? ["image", "text"] : ["image"],
	};
}

function usageOf(raw: any, model: ImagesModel): Usage {
	const prompt = raw.prompt_tokens || 0;
	const cached = raw.prompt_tokens_details?.cached_tokens || 0;
	const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens || 0;
	const cacheRead = cacheWrite > 0 ? Math.max(0, cached - cacheWrite) : cached;
	const input = Math.max(0, prompt - cacheRead - cacheWrite);
	const output = raw.completion_tokens || 0;
	const price = model.cost;
	const cost = {
		input: (price.input / 1_000_000) * input,
		output: (price.output / 1_000_000) * output,
		cacheRead: (price.cacheRead / 1_000_000) * cacheRead,
		cacheWrite: (price.cacheWrite / 1_000_000) * cacheWrite,
		total: 0,
	};
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

export async function generateImagesOpenRouter(
	model: ImagesModel,
	context: ImagesContext,
	options?: ImagesOptions,
): Promise<AssistantImages> {
	const result: AssistantImages = {
		api: model.api,
		provider: model.provider,
		model: model.id,
		output: [],
		stopReason: "stop",
		timestamp: Date.now(),
	};
	try {
		const apiKey = options?.apiKey;
		if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
		const response = await postJson({
			providerName: "OpenRouter",
			url: joinUrl(model.baseUrl, "chat/completions"),
			headers: { authorization: `Bearer ${apiKey}`, ...model.headers, ...options?.headers },
			body: body(model, context),
			model: model as unknown as Model,
			options: options as never,
		});
		const reply = (await response.json()) as any;
		result.responseId = reply.id;
		if (reply.usage) result.usage = usageOf(reply.usage, model);
		const message = reply.choices?.[0]?.message;
		if (typeof message?.content === "string" && message.content.length > 0) {
			result.output.push({ type: "text", text: message.content });
		}
		for (const image of message?.images ?? []) {
			const url = typeof image.image_url === "string" ? image.image_url : image.image_url?.url;
			const match = typeof url === "string" ? /^data:([^;]+);base64,(.+)$/.exec(url) : null;
			if (match) result.output.push({ type: "image", mimeType: match[1] as string, data: match[2] as string });
		}
		return result;
	} catch (error) {
		result.stopReason = options?.signal?.aborted ? "aborted" : "error";
		result.errorMessage = error instanceof Error ? error.message : String(error);
		return result;
	}
}
