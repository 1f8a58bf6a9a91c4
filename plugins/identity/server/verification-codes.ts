import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import type { CodePurpose } from './code-sender.js';
import { equalHashes, newNumericCode, sha256Hex } from './secret-tokens.js';
import { verificationCode } from './tables.js';

export const CODE_VALIDITY_MINUTES = 10;

export type CodeCheck = 'valid' | 'mismatch' | 'expired';

const codeHash = (id: string, code: string) => sha256Hex(`${id}:${code}`);

/**
 * SMS and e-mail one-time codes. Only the newest code of a purpose counts (asking again replaces
 * the old one), a code works once, and it expires after ten minutes.
 */
export class VerificationCodes {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async issue(userId: string, purpose: CodePurpose, challengeId: string | null = null): Promise<string> {
    const now = this.clock.now();
    const id = randomUUID();
    const code = newNumericCode();
    await this.db.transaction(async (tx) => {
      await tx
        .update(verificationCode)
        .set({ consumedAt: now })
        .where(
          and(
            eq(verificationCode.userId, userId),
            eq(verificationCode.purpose, purpose),
            isNull(verificationCode.consumedAt),
          ),
        );
      await tx.insert(verificationCode).values({
        id,
        userId,
        purpose,
        challengeId,
        codeHash: codeHash(id, code),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CODE_VALIDITY_MINUTES * 60_000),
      });
    });
    return code;
  }

  /** Checks and uses the code. */
  async check(
    userId: string,
    purpose: CodePurpose,
    code: string,
    challengeId: string | null = null,
  ): Promise<CodeCheck> {
    const peeked = await this.peek(userId, purpose, code, challengeId);
    if (peeked.outcome !== 'valid') return peeked.outcome;
    return (await this.consume(peeked.codeId)) ? 'valid' : 'expired';
  }

  /** Checks the code without using it, for callers that have more to check before it counts. */
  async peek(
    userId: string,
    purpose: CodePurpose,
    code: string,
    challengeId: string | null = null,
  ): Promise<{ outcome: 'valid'; codeId: string } | { outcome: 'mismatch' | 'expired' }> {
    const now = this.clock.now();
    const conditions = [
      eq(verificationCode.userId, userId),
      eq(verificationCode.purpose, purpose),
      isNull(verificationCode.consumedAt),
    ];
    if (challengeId) conditions.push(eq(verificationCode.challengeId, challengeId));
    const [current] = await this.db
      .select()
      .from(verificationCode)
      .where(and(...conditions))
      .orderBy(desc(verificationCode.createdAt))
      .limit(1);
    if (!current || current.expiresAt <= now) return { outcome: 'expired' };
    if (!equalHashes(current.codeHash, codeHash(current.id, code))) return { outcome: 'mismatch' };
    return { outcome: 'valid', codeId: current.id };
  }

  /** Uses a code; false when another request used it first. */
  async consume(codeId: string): Promise<boolean> {
    const used = await this.db
      .update(verificationCode)
      .set({ consumedAt: this.clock.now() })
      .where(and(eq(verificationCode.id, codeId), isNull(verificationCode.consumedAt)))
      .returning({ id: verificationCode.id });
    return used.length === 1;
  }
}
