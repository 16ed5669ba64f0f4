/** Placeholder: being written. */
import type { VendorFormat } from "./types.ts";

export const openaiResponsesFormat: VendorFormat = {
	renderReply: () => [],
	errorBody: (status, message) => ({ error: { code: status, message } }),
};
