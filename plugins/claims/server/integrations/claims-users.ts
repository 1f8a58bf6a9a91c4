import { inArray } from 'drizzle-orm';
import { ApiError, type Principal, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { USER_DIRECTORY, type DirectoryUser } from '@atrium/plugin-identity/user-directory';
import { claimsPermission } from '../permissions.js';
import { claimUser } from '../core/tables.js';

/**
 * Who is a claims user: an identity user (enabled) one of whose roles may update claims, asked of
 * the same access evaluator every route uses — no second list to keep in sync. `claim_user` keeps
 * only the per-user claim settings (and a copy of name, e-mail, phone), created on first use.
 *
 * The evaluator may read the database: call these with `context.db` before a transaction opens
 * (see loadClaimFor), then `ensureClaimUser(tx, …)` inside it.
 */
export type ClaimsUser = DirectoryUser & { roles: string[] };

async function mayHandleClaims(context: ServerPluginContext, user: DirectoryUser): Promise<ClaimsUser | null> {
  if (!user.enabled) return null;
  const { roleDirectory, evaluator } = context.services;
  if (!roleDirectory || !evaluator) return null;
  const roles = await roleDirectory.rolesOf({ username: user.username, groups: user.groups });
  for (const role of roles) {
    const principal: Principal = {
      kind: 'user',
      subject: user.username,
      username: user.username,
      effectiveRole: role,
      roles,
      attributes: {},
    };
    if ((await evaluator.evaluate(principal, claimsPermission('claim', 'update'))).allowed) return { ...user, roles };
  }
  return null;
}

/** The claims user `username`, or null when no such user exists or none of their roles handles claims. */
export async function findClaimsUser(context: ServerPluginContext, username: string): Promise<ClaimsUser | null> {
  const [user] = await context.service(USER_DIRECTORY).findUsers(context.db, [username]);
  return user ? mayHandleClaims(context, user) : null;
}

/** Like findClaimsUser, but a 400 at `pointer` ("User … is not a claims user.") when they are not one. */
export async function requireClaimsUser(
  context: ServerPluginContext,
  username: string,
  pointer: string,
): Promise<ClaimsUser> {
  const found = await findClaimsUser(context, username);
  if (!found) throw new ApiError(400, `User ${username} is not a claims user.`, { source: { pointer } });
  return found;
}

/**
 * The user names among `names` that are claims users, as identity spells them; a name is tried as
 * written, then in lower case (files name users by e-mail in any case).
 */
export async function claimsUsersAmong(context: ServerPluginContext, names: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const name of new Set(names)) {
    const user =
      (await findClaimsUser(context, name)) ??
      (name.toLowerCase() !== name ? await findClaimsUser(context, name.toLowerCase()) : null);
    if (user) found.add(user.username);
  }
  return [...found];
}

/** Every claims user (by name), up to `limit` identity users looked at; `search` narrows by name or username. */
export async function listClaimsUsers(
  context: ServerPluginContext,
  options: { search?: string; limit?: number } = {},
): Promise<ClaimsUser[]> {
  const users = await context.service(USER_DIRECTORY).searchUsers(context.db, {
    search: options.search,
    limit: options.limit ?? 1000,
  });
  const out: ClaimsUser[] = [];
  for (const user of users) {
    const found = await mayHandleClaims(context, user);
    if (found) out.push(found);
  }
  return out;
}

/** The user's claim settings row, created on first use; name, e-mail and phone follow identity. */
export async function ensureClaimUser(tx: Queryable, user: DirectoryUser): Promise<typeof claimUser.$inferSelect> {
  const values = { name: user.name, email: user.email, phone: user.phone ?? '' };
  const [row] = await tx
    .insert(claimUser)
    .values({ username: user.username, ...values })
    .onConflictDoUpdate({ target: claimUser.username, set: values })
    .returning();
  return row!;
}

/** The settings rows of these users (absent: none yet), by username. */
export async function settingsOf(db: Queryable, usernames: string[]): Promise<Map<string, Record<string, unknown>>> {
  if (usernames.length === 0) return new Map();
  const rows = await db
    .select({ username: claimUser.username, settings: claimUser.settings })
    .from(claimUser)
    .where(inArray(claimUser.username, usernames));
  return new Map(rows.map((r) => [r.username, r.settings]));
}
