import type { Database } from '@atrium/sdk/server';
import { readRevision } from './access-revision.js';
import { loadSnapshot, type AccessSnapshot } from './access-snapshot.js';

/**
 * The process's current AccessSnapshot. Writes made through this process invalidate it at once;
 * writes made by another process are noticed by reading the revision, at most once per
 * `revisionCheckMs` (1 s by default), so a change reaches every process within about a second
 * without a database read per request.
 */
export interface AccessStateOptions {
  revisionCheckMs?: number;
  now?: () => number;
}

export class AccessState {
  private snapshot: AccessSnapshot | null = null;
  private checkedAt = 0;
  private pending: Promise<AccessSnapshot> | null = null;
  /** Bumped by every invalidation: a load that started before one is not trusted. */
  private generation = 0;
  private readonly revisionCheckMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    options: AccessStateOptions = {},
  ) {
    this.revisionCheckMs = options.revisionCheckMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The snapshot, synchronously whenever one is known. Past `revisionCheckMs` the revision is read
   * in the background and the known snapshot answers meanwhile (a change by another process shows
   * from the next evaluation after that read). Evaluations never wait for the database then: a
   * module may evaluate inside its own transaction, and on the embedded database (one connection)
   * a read waiting behind that transaction would wait for ever (the quote page hung on it). Only
   * the first load and a load after `invalidate()` (a write through this process) are waited for.
   */
  current(): AccessSnapshot | Promise<AccessSnapshot> {
    if (this.snapshot && this.now() - this.checkedAt < this.revisionCheckMs) return this.snapshot;
    if (!this.pending) {
      const pending: Promise<AccessSnapshot> = this.refresh().finally(() => {
        if (this.pending === pending) this.pending = null;
      });
      this.pending = pending;
      // A failed background check is retried by the next evaluation; the known snapshot stays.
      if (this.snapshot) pending.catch(() => undefined);
    }
    return this.snapshot ?? this.pending;
  }

  async get(): Promise<AccessSnapshot> {
    return this.current();
  }

  /** Forget the snapshot; called after a write to the access tables commits. */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
    this.pending = null;
  }

  private async refresh(): Promise<AccessSnapshot> {
    for (;;) {
      const generation = this.generation;
      const known = this.snapshot;
      const startedAt = this.now();
      let next: AccessSnapshot;
      if (known && (await readRevision(this.db)) === known.revision) next = known;
      else next = await loadSnapshot(this.db);
      if (generation !== this.generation) continue;
      this.snapshot = next;
      this.checkedAt = startedAt;
      return next;
    }
  }
}
