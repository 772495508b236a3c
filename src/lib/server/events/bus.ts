/** The in-process wake-up for SSE streams: the log itself is in the session database (`log.ts`). */
type Listener = () => void;

/** Wakes SSE streams in this process when their session's log grows. A process resource, not request state. */
export class EventBus {
	private readonly listeners = new Map<string, Set<Listener>>();

	subscribe(sessionId: string, listener: Listener): () => void {
		let set = this.listeners.get(sessionId);
		if (!set) {
			set = new Set();
			this.listeners.set(sessionId, set);
		}
		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0) this.listeners.delete(sessionId);
		};
	}

	notify(sessionId: string): void {
		for (const l of this.listeners.get(sessionId) ?? []) l();
	}

	listenerCount(sessionId: string): number {
		return this.listeners.get(sessionId)?.size ?? 0;
	}
}
