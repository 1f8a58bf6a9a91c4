import { inArray, sql } from 'drizzle-orm';
import { provideService } from '@atrium/sdk/server';
import { identityDirectory } from '../shared/identity-directory.js';
import { user, userGroup } from './tables.js';
import { normalizeUsername } from './user-store.js';

/** The `identity.directory` service: which of the given users and groups exist (any case). */
export const identityDirectoryService = provideService(identityDirectory, () => ({
  async existingUsernames(tx, usernames: string[]) {
    const wanted = [...new Set(usernames.map(normalizeUsername))];
    if (wanted.length === 0) return [];
    const rows = await tx.select({ username: user.username }).from(user).where(inArray(user.username, wanted));
    return rows.map((row) => row.username);
  },
  async existingGroupNames(tx, names: string[]) {
    const wanted = [...new Set(names.map((name) => name.trim().toLowerCase()))];
    if (wanted.length === 0) return [];
    const rows = await tx
      .select({ name: userGroup.name })
      .from(userGroup)
      .where(inArray(sql`lower(${userGroup.name})`, wanted));
    return rows.map((row) => row.name);
  },
}));
