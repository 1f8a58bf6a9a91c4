import type { Queryable } from '@atrium/sdk/server';
import { identityRevision } from './tables.js';

/**
 * Tells the caches of one server process when what they hold may be stale. Triggers bump
 * `identity.revision` in every transaction that changes a user, session, group, membership, machine
 * client or signing key (migration 0004); this reads it at most once per `checkMs`, and a request
 * that arrives after that waits for the read. So a change committed by any process — another server,
 * a worker, a hand-written SQL statement — is honoured by every process within `checkMs`: a request
 * that starts `checkMs` after the commit sees it. Changes made through this process call
 * `changed()` and are honoured by the very next request.
 */
export const REVISION_CHECK_MS = 1_000;

export class RevisionWatch {
  private known: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | null = null;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly read: () => Promise<number>,
    private readonly checkMs = REVISION_CHECK_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `listener` whenever cached answers must be dropped. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Nothing when the last check is recent enough; else the check, which every caller shares. */
  check(): Promise<void> | undefined {
    if (this.now() - this.checkedAt < this.checkMs) return undefined;
    if (!this.checking) {
      const startedAt = this.now();
      const checking: Promise<void> = this.read()
        .then((revision) => {
          if (this.known !== undefined && revision !== this.known) this.notify();
          this.known = revision;
          // The start of the read, not its end: a commit after the read began is caught next time.
          this.checkedAt = startedAt;
        })
        .finally(() => {
          if (this.checking === checking) this.checking = null;
        });
      this.checking = checking;
    }
    return this.checking;
  }

  /** A change made by this process: drop cached answers now rather than at the next check. */
  changed(): void {
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export async function readIdentityRevision(db: Queryable): Promise<number> {
  const [row] = await db.select({ value: identityRevision.value }).from(identityRevision).limit(1);
  return row?.value ?? 0;
}
