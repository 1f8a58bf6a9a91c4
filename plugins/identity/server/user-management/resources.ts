import { isUniqueViolation } from '@atrium/sdk/server';
import { randomInt } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { ApiError, defineResource, type Queryable } from '@atrium/sdk/server';
import type { PasswordPolicy } from '../password-policy.js';
import { groupMember, userGroup, user } from '../tables.js';
import type { UserRecord } from '../user-store.js';

/**
 * The JSON:API resources of user management: `user` (with its `groups`), `group` and `app-client`.
 * The resources carry no `links.self`: user management paths have no trailing slash, and the shared
 * serializer's self links end in one.
 */
export const USER_MANAGEMENT_PREFIX = '/identity/user-management';
export const USER_MANAGEMENT_BASE = `/api${USER_MANAGEMENT_PREFIX}`;

export type GroupRecord = typeof userGroup.$inferSelect;
export type ManagedUser = UserRecord & { groupIds: string[] };

export const groupResource = defineResource<GroupRecord>({
  type: 'group',
  id: (row) => row.id,
  attributes: (row) => ({
    name: row.name,
    description: row.description,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }),
});

export function userResourceFor(db: Queryable) {
  return defineResource<ManagedUser>({
    type: 'user',
    id: (row) => row.id,
    attributes: (row) => ({
      username: row.username,
      email: row.email,
      email_verified: row.emailVerified,
      name: row.name,
      phone_number: row.phoneNumber,
      phone_number_verified: row.phoneNumberVerified,
      picture: row.picture,
      is_active: row.enabled,
      is_employee: row.isEmployee,
      contact_id: row.contactId,
      agency_id: row.agencyId,
      status: row.status,
      mfa_enabled: row.smsMfaEnabled || row.softwareTokenMfaEnabled,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    }),
    relationships: {
      groups: {
        resource: () => groupResource,
        many: true,
        ids: (row) => row.groupIds,
        load: (ids) => db.select().from(userGroup).where(inArray(userGroup.id, ids)).orderBy(asc(userGroup.name)),
      },
    },
  });
}

/** Attaches each user's group ids (one query for the whole page). */
export async function withGroups(db: Queryable, rows: UserRecord[]): Promise<ManagedUser[]> {
  if (rows.length === 0) return [];
  const memberships = await db
    .select({ userId: groupMember.userId, groupId: groupMember.groupId })
    .from(groupMember)
    .innerJoin(userGroup, eq(userGroup.id, groupMember.groupId))
    .where(
      inArray(
        groupMember.userId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(userGroup.name));
  const byUser = new Map<string, string[]>();
  for (const membership of memberships) {
    const list = byUser.get(membership.userId) ?? [];
    list.push(membership.groupId);
    byUser.set(membership.userId, list);
  }
  return rows.map((row) => ({ ...row, groupIds: byUser.get(row.id) ?? [] }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export const userNotFound = (id: string) =>
  new ApiError(404, `User '${id}' not found.`, { code: 'UserNotFoundException' });
export const groupNotFound = (id: string) =>
  new ApiError(404, `Group '${id}' not found.`, { code: 'ResourceNotFoundException' });

/** A user by id, with groups; 404 when the id is not a user's (including ids that are not UUIDs). */
export async function loadUser(db: Queryable, id: string): Promise<ManagedUser> {
  if (!isUuid(id)) throw userNotFound(id);
  const [row] = await db.select().from(user).where(eq(user.id, id)).limit(1);
  if (!row) throw userNotFound(id);
  const [managed] = await withGroups(db, [row]);
  return managed!;
}

export async function loadGroup(db: Queryable, id: string): Promise<GroupRecord> {
  if (!isUuid(id)) throw groupNotFound(id);
  const [row] = await db.select().from(userGroup).where(eq(userGroup.id, id)).limit(1);
  if (!row) throw groupNotFound(id);
  return row;
}

/** A field error on `/data/attributes/<field>` with an identity error code. */
export function attributeProblem(field: string, detail: string, code: string, status = 400): ApiError {
  return new ApiError(status, detail, {
    code,
    issues: [{ detail, code, source: { pointer: `/data/attributes/${field}` } }],
  });
}

// The SDK's: this module's callers import it from here.
export { isUniqueViolation };

/** The `id` of a PATCH document must be the record's (JSON:API 1.1 answers 409 otherwise). */
export function requireMatchingId(bodyId: string | undefined, id: string): void {
  if (bodyId !== id) {
    throw new ApiError(409, `The id in the document ('${bodyId}') is not the id in the URL.`, {
      source: { pointer: '/data/id' },
    });
  }
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!#$%&*+-=?@^_';

/** A random password that satisfies the policy: every character class, at least 16 characters. */
export function generateTemporaryPassword(policy: PasswordPolicy): string {
  const pick = (set: string) => set[randomInt(0, set.length)]!;
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < Math.max(16, policy.minimum_length)) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
