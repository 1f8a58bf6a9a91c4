import { desc, eq, inArray } from 'drizzle-orm';
import type { Database, Queryable } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordHistory, user } from './tables.js';

export type UserRecord = typeof user.$inferSelect;
export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';

/** Usernames are e-mail addresses; they compare trimmed and lower-cased. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export class UserStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
  ) {}

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(user)
      .where(eq(user.username, normalizeUsername(username)))
      .limit(1);
    return row;
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const [row] = await this.db.select().from(user).where(eq(user.id, id)).limit(1);
    return row;
  }

  async update(
    id: string,
    changes: Partial<Omit<UserRecord, 'id' | 'createdAt'>>,
    db: Queryable = this.db,
  ): Promise<UserRecord> {
    const [row] = await db
      .update(user)
      .set({ ...changes, updatedAt: this.clock.now() })
      .where(eq(user.id, id))
      .returning();
    if (!row) throw new Error(`User ${id} vanished during an update.`);
    return row;
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
