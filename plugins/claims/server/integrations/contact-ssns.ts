import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  formatSsn,
  HASHED_PREFIX,
  maskSsn,
  SEALED_PREFIX,
  SecretOpenError,
  ssnDigits,
  ssnVault,
  type Database,
  type Secrets,
  type SsnVault,
} from '@atrium/sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import { contact } from '../core/tables.js';

type ContactRow = typeof contact.$inferSelect;

/** What a contact row stores for an SSN. */
export interface SsnColumns {
  legacySsn: null;
  ssnSealed: string | null;
  ssnHash: string | null;
}

/** The context a contact's sealed SSN is bound to: moved to another row it no longer opens. */
const sealContext = (id: number) => `claims.contact:${id}:ssn`;

/**
 * Contacts' SSNs at rest (docs/security.md, "SSNs"): sealed by the SDK's SSN vault over the
 * platform secrets service, found by keyed hash, never stored in plaintext. Rows from before
 * sealing (and the demo seed, which cannot know the installation's key) still hold the plaintext in
 * the `ssn` column; every read and duplicate check handles them, and the sealing pass moves them —
 * at the first contacts request after start (when the demo seed is committed) and whenever a read
 * meets one. The same pass reseals SSNs sealed with a retired key after a key rotation.
 */
export class ContactSsns {
  private readonly vault: SsnVault;
  private running: Promise<void> | null = null;
  private requested = false;
  private started = false;

  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly log: FastifyBaseLogger,
  ) {
    this.vault = ssnVault(secrets);
  }

  /** The columns that store `ssn` (null clears it) for contact `id`. */
  columns(id: number, ssn: string | null): SsnColumns {
    if (ssn === null) return { legacySsn: null, ssnSealed: null, ssnHash: null };
    const stored = this.vault.seal(ssn, sealContext(id));
    return { legacySsn: null, ssnSealed: stored.sealed, ssnHash: stored.hash };
  }

  /**
   * The contact's SSN as `123-45-6789`, null when none is on file, undefined when a sealed one cannot
   * be opened (altered, or sealed with a key no longer configured; logged, and shown as on file).
   */
  plaintextOf(row: ContactRow): string | null | undefined {
    if (row.ssnSealed) {
      try {
        return this.vault.open(row.ssnSealed, sealContext(row.id));
      } catch (error) {
        if (!(error instanceof SecretOpenError)) throw error;
        this.log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open');
        return undefined;
      }
    }
    if (row.legacySsn) {
      this.nudge();
      return formatSsn(row.legacySsn);
    }
    return null;
  }

  /** The SSN attributes of a contact: `ssn` masked unless `unmasked`, `has_ssn`, `ssn_last4`. */
  attributesOf(row: ContactRow, unmasked: boolean) {
    const ssn = this.plaintextOf(row);
    if (ssn === null) return { ssn: null, has_ssn: false, ssn_last4: null };
    if (ssn === undefined) return { ssn: '***-**-****', has_ssn: true, ssn_last4: null };
    return { ssn: unmasked ? ssn : maskSsn(ssn), has_ssn: true, ssn_last4: ssnDigits(ssn).slice(-4) };
  }

  /** The contacts holding `ssn`: sealed ones by keyed hash, rows not yet sealed by their plaintext digits. */
  async holders(tx: Pick<Database, 'select'>, ssn: string): Promise<{ id: number }[]> {
    const rows = await tx
      .select({ id: contact.id, legacy: sql<boolean>`${contact.ssnHash} is null` })
      .from(contact)
      .where(
        or(
          inArray(contact.ssnHash, this.vault.hashes(ssn)),
          and(
            isNull(contact.ssnHash),
            isNotNull(contact.legacySsn),
            sql`regexp_replace(${contact.legacySsn}, '[^0-9]', '', 'g') = ${ssnDigits(ssn)}`,
          ),
        ),
      );
    if (rows.some((row) => row.legacy)) this.nudge();
    return rows.map(({ id }) => ({ id }));
  }

  /** Called on every contacts request: the first one after start asks for a sealing pass. */
  onRequest(): void {
    if (this.started) return;
    this.started = true;
    this.nudge();
  }

  /** Asks for a sealing pass in the background: one at a time, and one more if asked during it. */
  nudge(): void {
    if (this.running) {
      this.requested = true;
      return;
    }
    this.running = (async () => {
      do {
        this.requested = false;
        const sealed = await this.sealStored();
        if (sealed > 0) this.log.info({ contacts: sealed }, 'sealed stored SSNs');
      } while (this.requested);
    })()
      .catch((error: unknown) => this.log.warn({ err: error }, 'sealing stored SSNs failed'))
      .finally(() => {
        this.running = null;
      });
  }

  /** Waits for a pass under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * The data migration of sealing: seals the SSNs still stored in plaintext, and reseals (and
   * rehashes) those of a retired key. A row changed meanwhile is left to its writer. Answers how many
   * rows it rewrote.
   */
  async sealStored(): Promise<number> {
    // Only rows with work to do: plaintext, or sealed or hashed under another key than the current.
    const keyId = this.secrets.currentKeyId;
    const rows = await this.db
      .select({ id: contact.id, legacySsn: contact.legacySsn, ssnSealed: contact.ssnSealed, ssnHash: contact.ssnHash })
      .from(contact)
      .where(
        or(
          isNotNull(contact.legacySsn),
          and(
            isNotNull(contact.ssnSealed),
            or(
              sql`left(${contact.ssnSealed}, ${SEALED_PREFIX.length + keyId.length + 1}) <> ${`${SEALED_PREFIX}${keyId}:`}`,
              isNull(contact.ssnHash),
              sql`left(${contact.ssnHash}, ${HASHED_PREFIX.length + keyId.length + 1}) <> ${`${HASHED_PREFIX}${keyId}:`}`,
            ),
          ),
        ),
      );
    let rewritten = 0;
    for (const row of rows) {
      if (row.ssnSealed && !row.legacySsn) {
        if (row.ssnHash && !this.vault.needsRenewal({ sealed: row.ssnSealed, hash: row.ssnHash })) continue;
        let ssn: string;
        try {
          ssn = this.vault.open(row.ssnSealed, sealContext(row.id));
        } catch (error) {
          this.log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open; not resealed');
          continue;
        }
        const updated = await this.db
          .update(contact)
          .set(this.columns(row.id, ssn))
          .where(and(eq(contact.id, row.id), eq(contact.ssnSealed, row.ssnSealed)))
          .returning({ id: contact.id });
        rewritten += updated.length;
      } else if (row.legacySsn) {
        const updated = await this.db
          .update(contact)
          .set(this.columns(row.id, row.legacySsn))
          .where(and(eq(contact.id, row.id), eq(contact.legacySsn, row.legacySsn)))
          .returning({ id: contact.id });
        rewritten += updated.length;
      }
    }
    return rewritten;
  }
}
