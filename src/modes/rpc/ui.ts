/**
 * `ctx.ui` in RPC mode. Dialogs (`select`, `confirm`, `input`, `editor`) become an `extension_ui_request` on
 * stdout and wait for the `extension_ui_response` with the same id; a `timeout` or an aborted `signal` resolves
 * them on our side with the dismissal value (`undefined`, or `false` for confirm). `notify`, `setStatus`,
 * `setWidget` (string lines only), `setTitle` and `setEditorText`/`pasteToEditor` are one-way requests. What
 * needs a terminal degrades as pi documents: `custom()` gives undefined, component setters do nothing.
 */
import type { RpcExtensionUIRequest, RpcExtensionUIResponse } from "./types.ts";

type Request = RpcExtensionUIRequest extends infer R ? (R extends unknown ? Omit<R, "type" | "id"> : never) : never;

export interface RpcUi {
	/** The object extensions see as `ctx.ui`. */
	readonly ui: Record<string, unknown>;
	/** Routes a client's `extension_ui_response`; unknown ids are ignored. */
	handleResponse(response: RpcExtensionUIResponse): void;
	/** Resolves every open dialog with its dismissal value (shutdown). */
	cancelAll(): void;
}

interface DialogOptions {
	timeout?: number;
	signal?: AbortSignal;
}

export function createRpcUi(send: (record: RpcExtensionUIRequest) => void): RpcUi {
	const pending = new Map<string, (response: RpcExtensionUIResponse | undefined) => void>();
	const request = (fields: Request) => {
		const record = { type: "extension_ui_request", id: crypto.randomUUID(), ...fields } as RpcExtensionUIRequest;
		send(record);
		return record.id;
	};

	const dialog = <T>(
		fields: Request,
		options: DialogOptions | undefined,
		dismissed: T,
		read: (response: RpcExtensionUIResponse) => T,
	): Promise<T> => {
		if (options?.signal?.aborted) return Promise.resolve(dismissed);
		return new Promise<T>((resolve) => {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const id = request(fields);
			const finish = (response: RpcExtensionUIResponse | undefined) => {
				if (!pending.delete(id)) return;
				if (timer) clearTimeout(timer);
				options?.signal?.removeEventListener("abort", onAbort);
				resolve(response && !("cancelled" in response && response.cancelled) ? read(response) : dismissed);
			};
			const onAbort = () => finish(undefined);
			pending.set(id, finish);
			options?.signal?.addEventListener("abort", onAbort, { once: true });
			if (options?.timeout && options.timeout > 0) timer = setTimeout(() => finish(undefined), options.timeout);
		});
	};
	const value = (r: RpcExtensionUIResponse) => ("value" in r ? r.value : undefined);
	const nothing = () => undefined;

	const ui: Record<string, unknown> = {
		select: (title: string, options: string[], opts?: DialogOptions) =>
			dialog({ method: "select", title, options, ...timeoutOf(opts) }, opts, undefined, value),
		confirm: (title: string, message: string, opts?: DialogOptions) =>
			dialog({ method: "confirm", title, message, ...timeoutOf(opts) }, opts, false, (r) =>
				"confirmed" in r ? r.confirmed : false,
			),
		input: (title: string, placeholder?: string, opts?: DialogOptions) =>
			dialog(
				{ method: "input", title, ...(placeholder !== undefined ? { placeholder } : {}), ...timeoutOf(opts) },
				opts,
				undefined,
				value,
			),
		editor: (title: string, prefill?: string) =>
			dialog({ method: "editor", title, ...(prefill !== undefined ? { prefill } : {}) }, undefined, undefined, value),
		notify: (message: string, notifyType?: "info" | "warning" | "error") => {
			request({ method: "notify", message, ...(notifyType ? { notifyType } : {}) });
		},
		setStatus: (statusKey: string, statusText?: string) => {
			request({ method: "setStatus", statusKey, statusText });
		},
		setWidget: (widgetKey: string, content?: unknown, options?: { placement?: "aboveEditor" | "belowEditor" }) => {
			// Component factories need a terminal; only string lines travel.
			if (content !== undefined && !Array.isArray(content)) return;
			request({
				method: "setWidget",
				widgetKey,
				widgetLines: content as string[] | undefined,
				...(options?.placement ? { widgetPlacement: options.placement } : {}),
			});
		},
		setTitle: (title: string) => {
			request({ method: "setTitle", title });
		},
		setEditorText: (text: string) => {
			request({ method: "set_editor_text", text });
		},
		pasteToEditor: (text: string) => {
			request({ method: "set_editor_text", text });
		},
		custom: async () => undefined,
		onTerminalInput: () => nothing,
		setWorkingMessage: nothing,
		setWorkingVisible: nothing,
		setWorkingIndicator: nothing,
		setHiddenThinkingLabel: nothing,
		setFooter: nothing,
		setHeader: nothing,
		addAutocompleteProvider: nothing,
		setEditorComponent: nothing,
		getEditorComponent: nothing,
		getEditorText: () => "",
		getToolsExpanded: () => false,
		setToolsExpanded: nothing,
		getAllThemes: () => [],
		getTheme: nothing,
		setTheme: () => ({ success: false, error: "Theme switching not supported in RPC mode" }),
	};

	return {
		ui,
		handleResponse(response) {
			pending.get(response.id)?.(response);
		},
		cancelAll() {
			for (const finish of [...pending.values()]) finish(undefined);
		},
	};
}

function timeoutOf(options: DialogOptions | undefined): { timeout?: number } {
	return options?.timeout ? { timeout: options.timeout } : {};
}
