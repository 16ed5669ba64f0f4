export {
	type ExtensionHost,
	type ExtensionHostOptions,
	type RegisteredFlag,
	startExtensionHost,
} from "./extension-host.ts";
