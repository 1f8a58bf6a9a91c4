import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Queryable } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { newOpaqueToken, sha256Hex } from './secret-tokens.js';
import { refreshToken, refreshTokenFamily } from './tables.js';

/**
 * Sign-in sessions as refresh-token families. A refresh token is opaque, stored as its SHA-256, and
 * works once: each refresh rotates it. Presenting a token that was already rotated means it was
 * copied, so the whole family (the session and its access tokens) is revoked — unless it comes back
 * within REFRESH_REUSE_GRACE_SECONDS of its rotation: then it is the same client refreshing from
 * several tabs (or a retry after a lost answer), and it gets a fresh sibling token of the same family.
 *
 * Why a sibling and not the same successor: only hashes are stored, so the successor cannot be
 * handed out again without keeping it readable at rest; a sibling keeps the winner's token valid too,
 * so neither tab loses the session. The window counts from the first rotation and is not extended
 * by graceful reuses, so a stolen token is worth at most 30 seconds.
 */
export const MAXIMUM_SESSION_DAYS = 30;
/** How long a just-rotated refresh token may still be presented without revoking its session. */
export const REFRESH_REUSE_GRACE_SECONDS = 30;
export const DEFAULT_SESSION_TIMEOUT_MINUTES = 480;

export type RevocationReason = 'sign-out' | 'global-sign-out' | 'reuse' | 'password-change' | 'admin';

export type RotationResult =
  | { outcome: 'rotated'; userId: string; sessionId: string; refreshToken: string; expiresAt: Date }
  | { outcome: 'invalid' | 'revoked' | 'expired' | 'reused' };

export class SessionStore {
  /** Called after every revocation, so that cached session snapshots are dropped at once. */
  onRevoke: () => void = () => {};

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Minutes from the core setting (section login, option session-timeout); the session's lifetime.
   * 0 means no timeout: the session lasts the maximum (MAXIMUM_SESSION_DAYS).
   */
  async sessionTimeoutMinutes(): Promise<number> {
    try {
      const result = await this.db.execute<{ value: string }>(
        sql`SELECT value FROM core.setting WHERE section = 'login' AND option = 'session-timeout' LIMIT 1`,
      );
      const minutes = Number(JSON.parse(result.rows[0]?.value ?? 'null'));
      if (minutes === 0) return MAXIMUM_SESSION_DAYS * 24 * 60;
      return Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_SESSION_TIMEOUT_MINUTES;
    } catch {
      return DEFAULT_SESSION_TIMEOUT_MINUTES;
    }
  }

  async start(userId: string): Promise<{ sessionId: string; refreshToken: string; expiresAt: Date }> {
    const now = this.clock.now();
    const minutes = Math.min(await this.sessionTimeoutMinutes(), MAXIMUM_SESSION_DAYS * 24 * 60);
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    const token = newOpaqueToken();
    const sessionId = await this.db.transaction(async (tx) => {
      const [family] = await tx
        .insert(refreshTokenFamily)
        .values({ userId, createdAt: now, expiresAt })
        .returning({ id: refreshTokenFamily.id });
      await tx.insert(refreshToken).values({ familyId: family!.id, tokenHash: sha256Hex(token), createdAt: now });
      return family!.id;
    });
    return { sessionId, refreshToken: token, expiresAt };
  }

  /**
   * Rotates a refresh token in one transaction that holds the token's and the family's rows locked
   * (SELECT … FOR UPDATE), so concurrent refreshes of one token — in this process or another on the
   * same PostgreSQL — queue behind each other: the first rotates it, the others find it rotated and,
   * within the grace window, get siblings.
   */
  async rotate(presented: string): Promise<RotationResult> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ token: refreshToken, family: refreshTokenFamily })
        .from(refreshToken)
        .innerJoin(refreshTokenFamily, eq(refreshToken.familyId, refreshTokenFamily.id))
        .where(eq(refreshToken.tokenHash, sha256Hex(presented)))
        .limit(1)
        .for('update');
      if (!found) return { outcome: 'invalid' as const };
      const { token, family } = found;
      if (family.revokedAt) return { outcome: 'revoked' as const };
      if (token.rotatedAt) {
        const age = now.getTime() - token.rotatedAt.getTime();
        // (A negative age is another process's clock running slightly ahead: still within.)
        if (age >= REFRESH_REUSE_GRACE_SECONDS * 1000) {
          await this.revokeFamilyIn(tx, family.id, 'reuse', now);
          return { outcome: 'reused' as const };
        }
        if (family.expiresAt <= now) return { outcome: 'expired' as const };
        // Within the grace window: a sibling of the successor, the token's rotation left as it was.
        const sibling = newOpaqueToken();
        await tx.insert(refreshToken).values({ familyId: family.id, tokenHash: sha256Hex(sibling), createdAt: now });
        return {
          outcome: 'rotated' as const,
          userId: family.userId,
          sessionId: family.id,
          refreshToken: sibling,
          expiresAt: family.expiresAt,
        };
      }
      if (family.expiresAt <= now) return { outcome: 'expired' as const };
      const used = await tx
        .update(refreshToken)
        .set({ rotatedAt: now })
        .where(and(eq(refreshToken.id, token.id), isNull(refreshToken.rotatedAt)))
        .returning({ id: refreshToken.id });
      if (used.length === 0) {
        await this.revokeFamilyIn(tx, family.id, 'reuse', now);
        return { outcome: 'reused' as const };
      }
      const next = newOpaqueToken();
      await tx.insert(refreshToken).values({ familyId: family.id, tokenHash: sha256Hex(next), createdAt: now });
      return {
        outcome: 'rotated' as const,
        userId: family.userId,
        sessionId: family.id,
        refreshToken: next,
        expiresAt: family.expiresAt,
      };
    });
  }

  /** The session a refresh token belongs to, rotated or not; null when unknown. */
  async sessionOf(presented: string): Promise<{ sessionId: string; userId: string } | null> {
    const [found] = await this.db
      .select({ sessionId: refreshTokenFamily.id, userId: refreshTokenFamily.userId })
      .from(refreshToken)
      .innerJoin(refreshTokenFamily, eq(refreshToken.familyId, refreshTokenFamily.id))
      .where(eq(refreshToken.tokenHash, sha256Hex(presented)))
      .limit(1);
    return found ?? null;
  }

  async revoke(sessionId: string, reason: RevocationReason): Promise<void> {
    await this.revokeFamilyIn(this.db, sessionId, reason, this.clock.now());
  }

  /** Ends every session of a user (global sign-out, password reset, admin action). */
  async revokeAllOf(userId: string, reason: RevocationReason, db: Queryable = this.db): Promise<void> {
    await db
      .update(refreshTokenFamily)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(and(eq(refreshTokenFamily.userId, userId), isNull(refreshTokenFamily.revokedAt)));
    this.onRevoke();
  }

  /** Ends every other session of a user (password change): the caller's own session goes on. */
  async revokeAllOfExcept(userId: string, keptSessionId: string, reason: RevocationReason): Promise<void> {
    await this.db
      .update(refreshTokenFamily)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(
        and(
          eq(refreshTokenFamily.userId, userId),
          isNull(refreshTokenFamily.revokedAt),
          ne(refreshTokenFamily.id, keptSessionId),
        ),
      );
    this.onRevoke();
  }

  private async revokeFamilyIn(db: Queryable, sessionId: string, reason: RevocationReason, now: Date): Promise<void> {
    await db
      .update(refreshTokenFamily)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(refreshTokenFamily.id, sessionId), isNull(refreshTokenFamily.revokedAt)));
    this.onRevoke();
  }
}
