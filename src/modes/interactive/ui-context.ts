/**
 * `ctx.ui` in the interactive mode, built on the app's `InteractiveSurface`. Dialogs (`select`, `confirm`, `input`,
 * `editor`, and `custom` without `overlay`) take the editor's place and give it back when answered; a `timeout`
 * counts down in the title and dismisses, an aborted `signal` dismisses; a new dialog dismisses the one it
 * replaces. `custom` with `overlay` shows the component over the screen. Everything else goes to the surface.
 * An extension call that throws (a widget, footer or header factory, an input listener) is shown as one error
 * line and the screen keeps working. `ui_prompt_start`/`ui_prompt_end` are not emitted here: the runtime wraps
 * the UI a mode binds (ModeBinding.ui) with them, as for RPC.
 */
import type { ExtensionUIContext, UIDialogOptions } from "../../extensions/index.ts";
import type { Component, OverlayHandle, OverlayOptions, TuiInputListener } from "../../tui/index.ts";
import { ExtensionEditorComponent, ExtensionInputComponent, ExtensionSelectorComponent } from "./dialogs/index.ts";
import type { ExtensionComponent, InteractiveSurface } from "./surface.ts";
import { oneLine } from "./widgets.ts";

export interface InteractiveUiOptions {
	/** The `externalEditor` setting, read when an editor dialog opens (else $VISUAL, $EDITOR, nano). */
	externalEditorCommand?: () => string | undefined;
}

type CustomFactory = (
	tui: unknown,
	theme: unknown,
	keybindings: unknown,
	done: (result: unknown) => void,
) => ExtensionComponent | Promise<ExtensionComponent>;

interface CustomOptions {
	overlay?: boolean;
	overlayOptions?: OverlayOptions | (() => OverlayOptions);
	onHandle?: (handle: OverlayHandle) => void;
}

/** What a UI keeps for `resetInteractiveUi`. */
interface UiState {
	/** Dismisses the dialog in the editor's place, if this UI put one there. */
	dismissActive?: () => void;
	readonly unsubscribers: Set<() => void>;
}

const states = new WeakMap<object, UiState>();

/**
 * Closes the dialog a UI from `createInteractiveUi` has open (it answers as dismissed) and removes the terminal
 * input listeners its extensions added — for reload and session switch; the app resets the rest itself.
 */
export function resetInteractiveUi(ui: object): void {
	const state = states.get(ui);
	if (!state) return;
	state.dismissActive?.();
	for (const unsubscribe of [...state.unsubscribers]) unsubscribe();
}

export function createInteractiveUi(
	surface: InteractiveSurface,
	options: InteractiveUiOptions = {},
): ExtensionUIContext {
	const state: UiState = { unsubscribers: new Set() };
	const reportError = (what: string, error: unknown) => surface.notify(`${what} failed: ${oneLine(error)}`, "error");
	const guarded =
		<A extends unknown[]>(what: string, call: (...args: A) => void) =>
		(...args: A): void => {
			try {
				call(...args);
			} catch (error) {
				reportError(what, error);
			}
		};

	/** Puts `component` in the editor's place; `finish` (from `open`) dismisses it, restores and settles. */
	const inEditorPlace = <T>(
		open: (finish: (value: T) => void) => Component & { dispose?(): void },
		dismissed: T,
		signal?: AbortSignal,
	): Promise<T> =>
		new Promise<T>((resolve) => {
			if (signal?.aborted) {
				resolve(dismissed);
				return;
			}
			let settled = false;
			let restore: (() => void) | undefined;
			const finish = (value: T) => {
				if (settled) return;
				settled = true;
				signal?.removeEventListener("abort", onAbort);
				if (state.dismissActive === dismissSelf) state.dismissActive = undefined;
				try {
					component.dispose?.();
				} catch {
					// the dialog is gone either way
				}
				restore?.();
				resolve(value);
			};
			const onAbort = () => finish(dismissed);
			const dismissSelf = () => finish(dismissed);
			const component = open(finish);
			signal?.addEventListener("abort", onAbort, { once: true });
			takeEditorPlace(dismissSelf);
			restore = surface.replaceEditor(component);
		});

	/** A new dialog replaces the one this UI has up: that one answers as dismissed. */
	const takeEditorPlace = (dismiss: () => void) => {
		const previous = state.dismissActive;
		state.dismissActive = dismiss;
		if (previous) previous();
	};

	const select = (title: string, choices: string[], opts?: UIDialogOptions): Promise<string | undefined> =>
		inEditorPlace<string | undefined>(
			(finish) =>
				new ExtensionSelectorComponent(title, choices, finish, () => finish(undefined), {
					tui: surface,
					...(opts?.timeout !== undefined ? { timeout: opts.timeout } : {}),
					keybindings: surface.keybindings,
					onToggleToolsExpanded: () => surface.setToolsExpanded(!surface.getToolsExpanded()),
				}),
			undefined,
			opts?.signal,
		);

	const custom = (factory: CustomFactory, customOptions?: CustomOptions): Promise<unknown> => {
		const overlay = customOptions?.overlay ?? false;
		return new Promise<unknown>((resolve, reject) => {
			let component: ExtensionComponent | undefined;
			let closed = false;
			let shown = false;
			let restore: (() => void) | undefined;
			const takeDown = () => {
				if (!shown) return;
				shown = false;
				if (overlay) surface.hideOverlay();
				else restore?.();
			};
			const disposeComponent = () => {
				try {
					component?.dispose?.();
				} catch {
					// ignored, as pi does
				}
			};
			const close = (result: unknown) => {
				if (closed) return;
				closed = true;
				if (state.dismissActive === dismissSelf) state.dismissActive = undefined;
				takeDown();
				resolve(result);
				disposeComponent();
			};
			const dismissSelf = () => close(undefined);
			const fail = (error: unknown) => {
				if (closed) return;
				closed = true;
				if (state.dismissActive === dismissSelf) state.dismissActive = undefined;
				takeDown();
				disposeComponent();
				reject(error);
			};
			const show = (made: ExtensionComponent) => {
				component = made;
				if (closed) {
					disposeComponent();
					return;
				}
				if (overlay) {
					const given = customOptions?.overlayOptions;
					const width = (made as { width?: OverlayOptions["width"] }).width;
					const overlayOptions = given
						? typeof given === "function"
							? given()
							: given
						: width
							? { width }
							: undefined;
					const handle = surface.showOverlay(made, overlayOptions);
					shown = true;
					customOptions?.onHandle?.(handle);
				} else {
					takeEditorPlace(dismissSelf);
					restore = surface.replaceEditor(made);
					shown = true;
				}
			};
			try {
				Promise.resolve(factory(surface.tui, surface.theme(), surface.keybindings, close))
					.then(show)
					.catch(fail);
			} catch (error) {
				fail(error);
			}
		});
	};

	const ui: ExtensionUIContext = {
		select,
		confirm: async (title, message, opts) => (await select(`${title}\n${message}`, ["Yes", "No"], opts)) === "Yes",
		input: (title, placeholder, opts) =>
			inEditorPlace<string | undefined>(
				(finish) =>
					new ExtensionInputComponent(title, placeholder, finish, () => finish(undefined), {
						tui: surface,
						...(opts?.timeout !== undefined ? { timeout: opts.timeout } : {}),
						keybindings: surface.keybindings,
					}),
				undefined,
				opts?.signal,
			),
		editor: (title, prefill) =>
			inEditorPlace<string | undefined>(
				(finish) =>
					new ExtensionEditorComponent(
						surface.tui,
						surface.keybindings,
						title,
						prefill,
						finish,
						() => finish(undefined),
						{ editorTheme: surface.editorTheme(), onNotice: (message) => surface.notify(message, "error") },
						options.externalEditorCommand?.(),
					),
				undefined,
			),
		custom: custom as ExtensionUIContext["custom"],
		notify: (message, type) => surface.notify(message, type),
		onTerminalInput: (handler) => {
			let reported = false;
			const listener: TuiInputListener = (data) => {
				try {
					return handler(data);
				} catch (error) {
					if (!reported) reportError("Terminal input handler", error);
					reported = true;
					return undefined;
				}
			};
			const remove = surface.addInputListener(listener);
			const unsubscribe = () => {
				state.unsubscribers.delete(unsubscribe);
				remove();
			};
			state.unsubscribers.add(unsubscribe);
			return unsubscribe;
		},
		setStatus: (key, text) => surface.setStatus(key, text),
		setWorkingMessage: (message) => surface.setWorkingMessage(message),
		setWorkingVisible: (visible) => surface.setWorkingVisible(visible),
		setWorkingIndicator: (indicator) => surface.setWorkingIndicator(indicator),
		setHiddenThinkingLabel: (label) => surface.setHiddenThinkingLabel(label),
		setWidget: guarded("Widget", (key, content, widgetOptions) =>
			surface.setWidget(key, content as never, widgetOptions?.placement ?? "aboveEditor"),
		),
		setFooter: guarded("Footer", (factory) => surface.setFooter(factory as never)),
		setHeader: guarded("Header", (factory) => surface.setHeader(factory as never)),
		setTitle: (title) => surface.setTitle(title),
		pasteToEditor: (text) => surface.pasteToEditor(text),
		setEditorText: (text) => surface.setEditorText(text),
		getEditorText: () => surface.getEditorText(),
		addAutocompleteProvider: (wrapper) => surface.addAutocompleteProvider(wrapper),
		setEditorComponent: guarded("Editor component", (factory) => surface.setEditorComponent(factory as never)),
		getEditorComponent: () => surface.getEditorComponent() as never,
		get theme() {
			return surface.theme();
		},
		getAllThemes: () => surface.getAllThemes(),
		getTheme: (name) => surface.getTheme(name),
		setTheme: (theme) => surface.setTheme(theme),
		getToolsExpanded: () => surface.getToolsExpanded(),
		setToolsExpanded: (expanded) => surface.setToolsExpanded(expanded),
	};
	states.set(ui, state);
	return ui;
}
