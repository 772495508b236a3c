/** The in-process wake-up for SSE streams: the log itself is in the session database (`log.ts`). */

/**
 * `grew`: the session's log has new rows; `ended`: the session was deleted (its streams close); `access`: who
 * may watch it changed (a member removed): its streams check their viewers now.
 */
export type BusSignal = 'grew' | 'ended' | 'access';
type Listener = (signal: BusSignal) => void;

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
		this.signal(sessionId, 'grew');
	}

	/** The session is gone (deleted in this process): its streams end now, not at their next ownership check. */
	ended(sessionId: string): void {
		this.signal(sessionId, 'ended');
	}

	/** Someone lost the session (a member removed or gone): their streams end now, not at the next access check. */
	accessChanged(sessionId: string): void {
		this.signal(sessionId, 'access');
	}

	listenerCount(sessionId: string): number {
		return this.listeners.get(sessionId)?.size ?? 0;
	}

	private signal(sessionId: string, signal: BusSignal): void {
		// A copy: a listener may unsubscribe (the session ended) while the set is walked.
		for (const l of [...(this.listeners.get(sessionId) ?? [])]) l(signal);
	}
}
