import {
  DEFAULT_POST_LOGIN_PATH,
  NO_ROLE_ASSIGNMENTS,
  PREVIOUS_ROLE_UNAVAILABLE,
  PRODUCT_NAME,
  rolePromptText,
} from '../sign-in-messages.js';
import { postLoginTarget } from './safe-redirect.js';

export const ALL_MODULES_PATH = '/all-modules';

/** The prompt above the roles: why the user is asked, or that there is nothing to choose. */
export function rolePrompt(roles: readonly string[], redirectReason: string | null): string {
  if (roles.length === 0) return NO_ROLE_ASSIGNMENTS;
  return redirectReason ? PREVIOUS_ROLE_UNAVAILABLE : rolePromptText(PRODUCT_NAME);
}

/** Where the app goes after a role is chosen: the same-site redirect, else all-modules. */
export function afterRoleTarget(redirect: string | null, origin?: string): string {
  const target = postLoginTarget(redirect, origin);
  return target === DEFAULT_POST_LOGIN_PATH ? ALL_MODULES_PATH : target;
}
