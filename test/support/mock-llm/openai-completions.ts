/** Placeholder: being written. */
import type { VendorFormat } from "./types.ts";

export const openaiCompletionsFormat: VendorFormat = {
	renderReply: () => [],
	errorBody: (status, message) => ({ error: { code: status, message } }),
};
