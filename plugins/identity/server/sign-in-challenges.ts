import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { newOpaqueToken, sha256Hex } from './secret-tokens.js';
import { signInChallenge } from './tables.js';

/** A sign-in paused at a challenge lasts three minutes. */
export const CHALLENGE_LIFETIME_SECONDS = 3 * 60;

export type ChallengeName = 'NEW_PASSWORD_REQUIRED' | 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA';
export type ChallengeRecord = typeof signInChallenge.$inferSelect;

export type ChallengeLookup = { outcome: 'open'; challenge: ChallengeRecord } | { outcome: 'invalid' | 'expired' };

export class SignInChallenges {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async open(userId: string, challengeName: ChallengeName): Promise<{ session: string; challenge: ChallengeRecord }> {
    const now = this.clock.now();
    const session = newOpaqueToken();
    const [challenge] = await this.db
      .insert(signInChallenge)
      .values({
        sessionHash: sha256Hex(session),
        userId,
        challengeName,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_SECONDS * 1000),
      })
      .returning();
    return { session, challenge: challenge! };
  }

  async find(
    session: string,
    userId: string | undefined,
    challengeName: ChallengeName | ChallengeName[],
  ): Promise<ChallengeLookup> {
    const [challenge] = await this.db
      .select()
      .from(signInChallenge)
      .where(eq(signInChallenge.sessionHash, sha256Hex(session)))
      .limit(1);
    const names = Array.isArray(challengeName) ? challengeName : [challengeName];
    if (
      !challenge ||
      challenge.completedAt ||
      challenge.userId !== userId ||
      !names.includes(challenge.challengeName as ChallengeName)
    ) {
      return { outcome: 'invalid' };
    }
    if (challenge.expiresAt <= this.clock.now()) return { outcome: 'expired' };
    return { outcome: 'open', challenge };
  }

  /** Closes the challenge; false when another request closed it first. */
  async complete(challengeId: string): Promise<boolean> {
    const closed = await this.db
      .update(signInChallenge)
      .set({ completedAt: this.clock.now() })
      .where(and(eq(signInChallenge.id, challengeId), isNull(signInChallenge.completedAt)))
      .returning({ id: signInChallenge.id });
    return closed.length === 1;
  }

  /** Counts a code resend; returns how many the challenge has had, this one included. */
  async countResend(challengeId: string): Promise<number> {
    const [row] = await this.db
      .update(signInChallenge)
      .set({ resendCount: sql`${signInChallenge.resendCount} + 1` })
      .where(eq(signInChallenge.id, challengeId))
      .returning({ resendCount: signInChallenge.resendCount });
    return row?.resendCount ?? Number.POSITIVE_INFINITY;
  }
}
