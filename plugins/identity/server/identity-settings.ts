import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '@atrium/sdk/server';
import { DEFAULT_PASSWORD_POLICY, passwordPolicySchema, type PasswordPolicy } from './password-policy.js';
import { identitySetting } from './tables.js';

/**
 * MfaConfiguration: `off` never asks for a second factor; `optional` asks users who enabled one;
 * `required` asks everyone (by SMS when they have no enabled method but a phone number).
 */
export const mfaSettingsSchema = z.object({
  mfa_configuration: z.enum(['off', 'optional', 'required']),
});
export type MfaSettings = z.infer<typeof mfaSettingsSchema>;
export const DEFAULT_MFA_SETTINGS: MfaSettings = { mfa_configuration: 'optional' };

async function readSetting<T>(db: Queryable, key: string, schema: z.ZodType<T>, fallback: T): Promise<T> {
  const [row] = await db.select().from(identitySetting).where(eq(identitySetting.key, key)).limit(1);
  if (!row) return fallback;
  const parsed = schema.safeParse(row.value);
  return parsed.success ? parsed.data : fallback;
}

async function writeSetting(db: Queryable, key: string, value: unknown, now: Date): Promise<void> {
  await db
    .insert(identitySetting)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: identitySetting.key, set: { value, updatedAt: now } });
}

export const readPasswordPolicy = (db: Queryable): Promise<PasswordPolicy> =>
  readSetting(db, 'password-policy', passwordPolicySchema, DEFAULT_PASSWORD_POLICY);

export const writePasswordPolicy = (db: Queryable, policy: PasswordPolicy, now: Date) =>
  writeSetting(db, 'password-policy', policy, now);

export const readMfaSettings = (db: Queryable): Promise<MfaSettings> =>
  readSetting(db, 'mfa-settings', mfaSettingsSchema, DEFAULT_MFA_SETTINGS);

export const writeMfaSettings = (db: Queryable, settings: MfaSettings, now: Date) =>
  writeSetting(db, 'mfa-settings', settings, now);
