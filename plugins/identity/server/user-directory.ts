import { and, asc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import type { DirectoryUser, UserDirectory } from '../shared/user-directory.js';
import { groupMember, user, userGroup } from './tables.js';
import { normalizeUsername } from './user-store.js';

/** The identity.user-directory service (shared/user-directory.ts) over identity's own tables. */
export function createUserDirectory(): UserDirectory {
  const withGroups = async (tx: Queryable, rows: (typeof user.$inferSelect)[]): Promise<DirectoryUser[]> => {
    const ids = rows.map((r) => r.id);
    const memberships = ids.length
      ? await tx
          .select({ userId: groupMember.userId, name: userGroup.name })
          .from(groupMember)
          .innerJoin(userGroup, eq(userGroup.id, groupMember.groupId))
          .where(inArray(groupMember.userId, ids))
      : [];
    return rows.map((r) => ({
      username: r.username,
      name: r.name,
      email: r.email,
      phone: r.phoneNumber,
      groups: memberships.filter((m) => m.userId === r.id).map((m) => m.name),
      enabled: r.enabled,
    }));
  };
  return {
    async findUsers(tx, usernames) {
      const names = [...new Set(usernames.map(normalizeUsername))];
      if (names.length === 0) return [];
      return withGroups(tx, await tx.select().from(user).where(inArray(user.username, names)));
    },
    async searchUsers(tx, { search, limit }) {
      const pattern = search?.trim() ? `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const rows = await tx
        .select()
        .from(user)
        .where(
          and(
            eq(user.enabled, true),
            pattern ? or(ilike(user.username, pattern), ilike(user.name, pattern)) : undefined,
          ),
        )
        .orderBy(asc(user.name), asc(user.username))
        .limit(limit);
      return withGroups(tx, rows);
    },
  };
}
