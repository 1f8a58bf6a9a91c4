/**
 * A bounded least-recently-used map whose misses are loaded once: concurrent requests for the same
 * key share one load instead of each asking the database (when a session's entry is missing, the 50
 * requests in flight for it would otherwise run 50 identical queries). A failed load is not kept.
 * `clear()` also orphans loads in flight: their result is handed to the requests already waiting
 * for it, but never stored, so nothing read before an invalidation outlives it.
 */
interface Slot<V> {
  done: boolean;
  value?: V;
  pending?: Promise<V>;
}

export class LoadingCache<V> {
  private readonly slots = new Map<string, Slot<V>>();

  constructor(private readonly maxEntries = 10_000) {}

  get size(): number {
    return this.slots.size;
  }

  /** The value for `key`: synchronously when it is known, else the (shared) load of it. */
  get(key: string, load: () => Promise<V>): V | Promise<V> {
    const found = this.slots.get(key);
    if (found) {
      // Re-inserting moves the key to the young end; Maps iterate in insertion order.
      this.slots.delete(key);
      this.slots.set(key, found);
      return found.done ? found.value! : found.pending!;
    }
    const slot: Slot<V> = { done: false };
    slot.pending = load().then(
      (value) => {
        if (this.slots.get(key) === slot) {
          slot.done = true;
          slot.value = value;
          slot.pending = undefined;
        }
        return value;
      },
      (error: unknown) => {
        if (this.slots.get(key) === slot) this.slots.delete(key);
        throw error;
      },
    );
    if (this.slots.size >= this.maxEntries) {
      const oldest = this.slots.keys().next().value;
      if (oldest !== undefined) this.slots.delete(oldest);
    }
    this.slots.set(key, slot);
    return slot.pending;
  }

  delete(key: string): void {
    this.slots.delete(key);
  }

  clear(): void {
    this.slots.clear();
  }
}
