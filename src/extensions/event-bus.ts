/**
 * `pi.events`: a channel bus shared by every extension. A listener that throws or whose promise rejects is
 * reported through `onError` and never reaches the emitter.
 */
export type EventBusListener = (data: unknown) => unknown;

export interface EventBus {
	on(channel: string, handler: EventBusListener): () => void;
	emit(channel: string, data?: unknown): void;
}

export function createEventBus(onError: (channel: string, error: unknown) => void = () => {}): EventBus {
	const listeners = new Map<string, Set<EventBusListener>>();
	return {
		on(channel, handler) {
			let set = listeners.get(channel);
			if (!set) {
				set = new Set();
				listeners.set(channel, set);
			}
			set.add(handler);
			return () => {
				set.delete(handler);
			};
		},
		emit(channel, data) {
			const set = listeners.get(channel);
			if (!set) return;
			for (const handler of [...set]) {
				try {
					const result = handler(data);
					if (result instanceof Promise) result.catch((error) => onError(channel, error));
				} catch (error) {
					onError(channel, error);
				}
			}
		},
	};
}
