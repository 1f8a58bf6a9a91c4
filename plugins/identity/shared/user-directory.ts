import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * The people who sign in, as other modules may read them (identity owns the users and groups
 * tables; nobody else reads them). Claims asks it who may be given claims; access may ask it which
 * users exist. Usernames compare trimmed and lower-cased.
 */
export interface DirectoryUser {
  username: string;
  name: string;
  email: string;
  phone: string | null;
  /** Names of the user-management groups the user belongs to (access assigns roles to groups). */
  groups: string[];
  /** false: the account is disabled and cannot sign in. */
  enabled: boolean;
}

export type UserDirectory = {
  /** The users among `usernames` that exist, in no particular order. */
  findUsers(tx: Queryable, usernames: string[]): Promise<DirectoryUser[]>;
  /** Enabled users whose username or name contains `search` (any case), by name; at most `limit`. */
  searchUsers(tx: Queryable, options: { search?: string; limit: number }): Promise<DirectoryUser[]>;
};

export const USER_DIRECTORY = createServiceRef<UserDirectory>('identity.user-directory');
