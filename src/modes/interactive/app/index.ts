/** The interactive app (`pi` in a terminal). */
export type { AppSettings } from "./app.ts";
export { APP_KEYBINDINGS, loadAppKeybindings } from "./keybindings.ts";
export {
	type InteractiveHandle,
	type InteractiveRunContext,
	type StartInteractiveOptions,
	startInteractive,
} from "./start.ts";
export { askProjectTrustAtStartup, type StartupTrustAnswer } from "./startup-trust.ts";
