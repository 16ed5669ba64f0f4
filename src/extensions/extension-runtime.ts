/**
 * pi's `createExtensionRuntime()`: the action table an extension's `pi` object calls into, before a session binds
 * it. Actions throw until then (`setModel` rejects); provider registrations made while loading are queued; once
 * invalidated (the session was replaced or reloaded), `assertActive` throws and `pi.events` subscriptions end.
 */

const NOT_READY = "Extension runtime not initialized. Action methods cannot be called during extension loading.";
const STALE =
	"This extension ctx is stale after session replacement or reload: a pi or ctx object captured before " +
	"ctx.newSession(), ctx.fork(), ctx.switchSession() or ctx.reload() must not be used afterwards; use the ctx " +
	"passed to withSession (or, after reload, a fresh ctx).";

export interface PendingProviderRegistration {
	name: string;
	config: unknown;
	extensionPath: string;
}

export interface SdkExtensionRuntime {
	[action: string]: unknown;
	flagValues: Map<string, boolean | string>;
	pendingProviderRegistrations: PendingProviderRegistration[];
	pendingNativeProviderRegistrations: { provider: { id: string }; extensionPath: string }[];
	assertActive(): void;
	invalidate(message?: string): void;
	trackEventBusSubscription(unsubscribe: () => void): () => void;
	refreshTools(): void;
	registerProvider(name: string, config: unknown, extensionPath?: string): void;
	registerNativeProvider(provider: { id: string }, extensionPath?: string): void;
	unregisterProvider(name: string): void;
}

export function createExtensionRuntime(): SdkExtensionRuntime {
	const notReady = () => {
		throw new Error(NOT_READY);
	};
	let stale: string | undefined;
	const subscriptions = new Set<() => void>();
	const runtime: SdkExtensionRuntime = {
		sendMessage: notReady,
		sendUserMessage: notReady,
		appendEntry: notReady,
		setSessionName: notReady,
		getSessionName: notReady,
		setLabel: notReady,
		getActiveTools: notReady,
		getAllTools: notReady,
		setActiveTools: notReady,
		getCommands: notReady,
		getThinkingLevel: notReady,
		setThinkingLevel: notReady,
		setModel: () => Promise.reject(new Error("Extension runtime not initialized")),
		// Registering a tool while loading is fine; the refresh matters only once a session is bound.
		refreshTools: () => {},
		flagValues: new Map(),
		pendingProviderRegistrations: [],
		pendingNativeProviderRegistrations: [],
		assertActive: () => {
			if (stale) throw new Error(stale);
		},
		invalidate: (message) => {
			if (stale) return;
			stale = message ?? STALE;
			for (const unsubscribe of [...subscriptions]) unsubscribe();
			subscriptions.clear();
		},
		trackEventBusSubscription: (unsubscribe) => {
			let active = true;
			const tracked = () => {
				if (!active) return;
				active = false;
				subscriptions.delete(tracked);
				unsubscribe();
			};
			subscriptions.add(tracked);
			return tracked;
		},
		registerProvider: (name, config, extensionPath = "<unknown>") => {
			runtime.pendingProviderRegistrations.push({ name, config, extensionPath });
		},
		registerNativeProvider: (provider, extensionPath = "<unknown>") => {
			runtime.pendingNativeProviderRegistrations.push({ provider, extensionPath });
		},
		unregisterProvider: (name) => {
			runtime.pendingProviderRegistrations = runtime.pendingProviderRegistrations.filter((r) => r.name !== name);
			runtime.pendingNativeProviderRegistrations = runtime.pendingNativeProviderRegistrations.filter(
				(r) => r.provider.id !== name,
			);
		},
	};
	return runtime;
}
