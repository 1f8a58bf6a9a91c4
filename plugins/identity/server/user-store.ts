import { and, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Database, Queryable, Secrets } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordHistory, user } from './tables.js';

export type UserRecord = typeof user.$inferSelect;
export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';

/** Usernames are e-mail addresses; they compare trimmed and lower-cased. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * The TOTP secrets (verified and pending) are sealed at rest with the platform's secrets service
 * (docs/security.md, "Secrets at rest"), each bound to its user and column, and opened here: a
 * UserRecord always holds them in plaintext, the table never does (once `sealStoredSecrets` has run
 * over rows written before sealing, or by the demo seed).
 */
const SEALED_COLUMNS = [
  { field: 'totpSecret', column: 'totp_secret' },
  { field: 'totpPendingSecret', column: 'totp_pending_secret' },
] as const;

const sealContext = (userId: string, column: string) => `identity.user.${column}:${userId}`;

export class UserStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
  ) {}

  private opened(row: UserRecord | undefined): UserRecord | undefined {
    if (!row) return row;
    const result = { ...row };
    for (const { field, column } of SEALED_COLUMNS) {
      const value = row[field];
      if (value && this.secrets.isSealed(value)) result[field] = this.secrets.open(value, sealContext(row.id, column));
    }
    return result;
  }

  private sealed(id: string, changes: Partial<UserRecord>): Partial<UserRecord> {
    const result = { ...changes };
    for (const { field, column } of SEALED_COLUMNS) {
      const value = changes[field];
      if (value) result[field] = this.secrets.seal(value, sealContext(id, column));
    }
    return result;
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(user)
      .where(eq(user.username, normalizeUsername(username)))
      .limit(1);
    return this.opened(row);
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const [row] = await this.db.select().from(user).where(eq(user.id, id)).limit(1);
    return this.opened(row);
  }

  async update(
    id: string,
    changes: Partial<Omit<UserRecord, 'id' | 'createdAt'>>,
    db: Queryable = this.db,
  ): Promise<UserRecord> {
    const [row] = await db
      .update(user)
      .set({ ...this.sealed(id, changes), updatedAt: this.clock.now() })
      .where(eq(user.id, id))
      .returning();
    if (!row) throw new Error(`User ${id} vanished during an update.`);
    return this.opened(row)!;
  }

  /**
   * The data migration of sealing: seals TOTP secrets still stored in plaintext (rows from before
   * sealing, the demo seed) and reseals those sealed with a retired key (key rotation). Runs at
   * start and with the hourly housekeeping; `updated_at` is left alone (nothing changed for the user).
   * Answers how many rows it rewrote.
   */
  async sealStoredSecrets(): Promise<number> {
    const rows = await this.db
      .select({ id: user.id, totpSecret: user.totpSecret, totpPendingSecret: user.totpPendingSecret })
      .from(user)
      .where(or(isNotNull(user.totpSecret), isNotNull(user.totpPendingSecret)));
    let rewritten = 0;
    for (const row of rows) {
      const changes: Partial<UserRecord> = {};
      for (const { field, column } of SEALED_COLUMNS) {
        const value = row[field];
        if (!value) continue;
        if (!this.secrets.isSealed(value)) changes[field] = this.secrets.seal(value, sealContext(row.id, column));
        else if (this.secrets.needsResealing(value)) {
          const context = sealContext(row.id, column);
          changes[field] = this.secrets.seal(this.secrets.open(value, context), context);
        }
      }
      if (Object.keys(changes).length === 0) continue;
      // Only if the row still holds what was read: an enrolment meanwhile wins.
      const conditions = SEALED_COLUMNS.filter(({ field }) => field in changes).map(({ field }) =>
        eq(user[field], row[field]!),
      );
      const updated = await this.db
        .update(user)
        .set(changes)
        .where(and(eq(user.id, row.id), ...conditions))
        .returning({ id: user.id });
      rewritten += updated.length;
    }
    return rewritten;
  }

  /** True when the password matches the current one or one of the last `historySize` ones. */
  async reusesPassword(record: UserRecord, password: string, historySize: number): Promise<boolean> {
    if (historySize <= 0) return false;
    if (await this.hasher.verify(record.passwordHash, password)) return true;
    const earlier = await this.db
      .select({ passwordHash: passwordHistory.passwordHash })
      .from(passwordHistory)
      .where(eq(passwordHistory.userId, record.id))
      .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
      .limit(Math.max(0, historySize - 1));
    for (const entry of earlier) {
      if (await this.hasher.verify(entry.passwordHash, password)) return true;
    }
    return false;
  }

  /** Sets a new password, keeps the old hash in the history (trimmed to `historySize`). */
  async setPassword(
    record: UserRecord,
    password: string,
    status: UserStatus,
    historySize: number,
    db: Queryable = this.db,
  ): Promise<UserRecord> {
    const now = this.clock.now();
    const passwordHash = await this.hasher.hash(password);
    await db.insert(passwordHistory).values({ userId: record.id, passwordHash: record.passwordHash, createdAt: now });
    const keep = await db
      .select({ id: passwordHistory.id })
      .from(passwordHistory)
      .where(eq(passwordHistory.userId, record.id))
      .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id));
    const stale = keep.slice(Math.max(0, historySize - 1)).map((entry) => entry.id);
    if (stale.length > 0) await db.delete(passwordHistory).where(inArray(passwordHistory.id, stale));
    return this.update(record.id, { passwordHash, status, passwordChangedAt: now }, db);
  }
}

/** `a***@atrium.test`: enough for a person to recognise their address, too little to harvest it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** `+*******0123`. */
export function maskPhoneNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `+${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
