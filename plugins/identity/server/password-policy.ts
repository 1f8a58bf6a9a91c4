import { z } from 'zod';

/**
 * The password policy (GET settings/password-policy): length, character classes and history. The
 * web client drives its password rule from it; the server enforces it on every password it sets.
 */
export const passwordPolicySchema = z.object({
  minimum_length: z.number().int().min(8).max(128),
  require_lowercase: z.boolean(),
  require_uppercase: z.boolean(),
  require_numbers: z.boolean(),
  require_symbols: z.boolean(),
  /** How many earlier passwords a new one may not repeat (0: none). */
  password_history_size: z.number().int().min(0).max(24),
  temporary_password_validity_days: z.number().int().min(1).max(365),
});

export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minimum_length: 12,
  require_lowercase: true,
  require_uppercase: true,
  require_numbers: true,
  require_symbols: true,
  password_history_size: 5,
  temporary_password_validity_days: 7,
};

/** Longer inputs are refused before hashing: argon2 work should not be the caller's to choose. */
export const MAXIMUM_PASSWORD_LENGTH = 256;

/** The policy's complaints about a password, in the identity provider's wording; empty when it passes. */
export function passwordPolicyViolations(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  if ([...password].length < policy.minimum_length) problems.push('Password not long enough');
  if (password.length > MAXIMUM_PASSWORD_LENGTH) problems.push('Password too long');
  if (policy.require_lowercase && !/\p{Ll}/u.test(password)) problems.push('Password must have lowercase characters');
  if (policy.require_uppercase && !/\p{Lu}/u.test(password)) problems.push('Password must have uppercase characters');
  if (policy.require_numbers && !/\p{Nd}/u.test(password)) problems.push('Password must have numeric characters');
  if (policy.require_symbols && !/[^\p{L}\p{Nd}\s]/u.test(password))
    problems.push('Password must have symbol characters');
  return problems;
}
