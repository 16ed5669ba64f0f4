/**
 * The llama.cpp router's shapes as pi 0.87.1 reads them (`GET /models` entries, `/props`, the `/models/sse` events)
 * and what the router client reports while it waits (progress of a load or a download).
 */

/** The model states the router reports (`status.value`); other strings pass through as they come. */
export type RouterModelState = "loaded" | "sleeping" | "unloaded" | "loading" | "downloading" | (string & {});

export interface RouterModelStatus {
	value: RouterModelState;
	/** Set when the model's server process failed to start. */
	failed?: boolean;
	exit_code?: number;
	/** Arguments the router starts the model with (`-c 32768` …). */
	args?: string[];
	/** Download progress while `value` is "downloading". */
	progress?: unknown;
}

/** One entry of `GET /models` (`data[]`). */
export interface RouterModel {
	id: string;
	status: RouterModelStatus;
	/** "preset" for a model of the router's presets (autoload can start it on first use). */
	source?: string;
	/** Context sizes of a loaded model: the one it runs with and the one it was trained with. */
	meta?: { n_ctx?: number; n_ctx_train?: number; [field: string]: unknown };
	architecture?: { input_modalities?: string[]; [field: string]: unknown };
	[field: string]: unknown;
}

/** What `GET /props` tells (only these two fields are used). */
export interface RouterProps {
	models_autoload?: boolean;
	chat_template?: string;
}

/** A `/models/sse` event. */
export interface RouterEvent {
	model: string;
	event: string;
	data?: unknown;
}

/** Progress of a load or download, as the `/llama` dialog shows it. */
export interface RouterProgress {
	message: string;
	/** 0..1 when known. */
	ratio?: number;
	/** e.g. "1.20 GiB / 4.00 GiB". */
	detail?: string;
}

/** A Hugging Face search hit. */
export interface HubModel {
	id: string;
	downloads: number;
}

/** A repository's GGUF quantizations (size undefined when a file's size is unknown). */
export interface HubDetails {
	id: string;
	gated: false | "auto" | "manual";
	quantizations: { name: string; size?: number }[];
}
