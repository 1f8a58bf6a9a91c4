import type { z } from 'zod';
import type { passwordPolicyResponse } from '../../shared/identity-schemas.js';

/**
 * The spec's password rule, driven by the fetched password policy (GET settings/password-policy,
 * cached for a minute): the first complaint in the identity provider's wording, or null.
 */
export type PasswordPolicy = z.infer<typeof passwordPolicyResponse>;

export const PASSWORD_POLICY_CACHE_MS = 60_000;
export const PASSWORDS_DIFFER = 'The passwords do not match.';

export function passwordRuleMessage(password: string, policy: PasswordPolicy | undefined): string | null {
  if (!policy) return null;
  if ([...password].length < policy.minimum_length) return 'Password not long enough';
  if (policy.require_lowercase && !/\p{Ll}/u.test(password)) return 'Password must have lowercase characters';
  if (policy.require_uppercase && !/\p{Lu}/u.test(password)) return 'Password must have uppercase characters';
  if (policy.require_numbers && !/\p{Nd}/u.test(password)) return 'Password must have numeric characters';
  if (policy.require_symbols && !/[^\p{L}\p{Nd}\s]/u.test(password)) return 'Password must have symbol characters';
  return null;
}

/** What the policy asks for, as one sentence under the field. */
export function passwordPolicyHint(policy: PasswordPolicy | undefined): string {
  if (!policy) return '';
  const classes = [
    policy.require_lowercase ? 'a lowercase letter' : null,
    policy.require_uppercase ? 'an uppercase letter' : null,
    policy.require_numbers ? 'a number' : null,
    policy.require_symbols ? 'a symbol' : null,
  ].filter(Boolean);
  const tail = classes.length > 0 ? `, with ${classes.join(', ').replace(/, ([^,]*)$/, ' and $1')}` : '';
  return `At least ${policy.minimum_length} characters${tail}.`;
}
