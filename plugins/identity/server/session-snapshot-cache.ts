/**
 * Authenticating a request needs the caller's session (is it revoked?) and roles. Reading both from
 * the database on every request costs two round trips on the hottest path of the product, so the
 * answer is kept for a few seconds per session. Revocations made by this process clear the cache at
 * once; other processes see them within `ttlMs`. That is the window the identity issue allows:
 * access tokens are bearer tokens valid until they expire, and routes that move money or change
 * access still ask the database itself through `tokenIsRevoked`.
 */
export class SessionSnapshotCache<Snapshot> {
  private readonly entries = new Map<string, { snapshot: Snapshot; at: number }>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Snapshot | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.snapshot;
  }

  set(key: string, snapshot: Snapshot): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { snapshot, at: this.now() });
  }

  /** Revocations are rare; clearing everything keeps invalidation obviously correct. */
  clear(): void {
    this.entries.clear();
  }
}
