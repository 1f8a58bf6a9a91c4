import { userCreated, userDeactivated, userEventData, userUpdated } from '../events.js';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  emitEvent,
  pageQuerySchema,
  paginationLinks,
  relationshipDocument,
  resourceDocument,
  serializeDocument,
  toManyRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type Queryable,
} from '@atrium/sdk/server';
import { readPasswordPolicy } from '../identity-settings.js';
import type { IdentityServices } from '../identity-services.js';
import { passwordPolicyViolations } from '../password-policy.js';
import { federatedIdentity, groupMember, oidcProvider, user, userGroup } from '../tables.js';
import { normalizeUsername, type UserRecord } from '../user-store.js';
import { emailAddress, personName, phoneNumber, pictureUrl } from './attributes.js';
import { USER_MANAGEMENT_PERMISSIONS as P } from './permissions.js';
import {
  attributeProblem,
  generateTemporaryPassword,
  isUniqueViolation,
  isUuid,
  loadUser,
  requireMatchingId,
  userResourceFor,
  USER_MANAGEMENT_BASE,
  withGroups,
} from './resources.js';

/** A contact id an agent or agency stands for (CON-…); null clears it. */
const producerId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Use letters, digits and . _ : - only.');

/** contact_id and agency_id must name contacts of the contact store (when it is installed). */
async function requireKnownContacts(
  services: IdentityServices,
  attributes: { contact_id?: string | null; agency_id?: string | null },
): Promise<void> {
  for (const field of ['contact_id', 'agency_id'] as const) {
    const id = attributes[field];
    if (!id) continue;
    const [unknown] = await services.unknownContacts(services.db, [id]);
    if (unknown) throw attributeProblem(field, `Contact ${unknown} not found.`, 'InvalidParameterException');
  }
}

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];
export const USER_PAGE_SIZE = 200;

const idParams = z.strictObject({ id: z.string().min(1).max(100) });
const USERNAME_EXISTS = 'An account with the given email already exists.';
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const SORTS = {
  username: user.username,
  name: sql`lower(${user.name})`,
  created_at: user.createdAt,
} as const;
type SortKey = keyof typeof SORTS;
const sortValues = Object.keys(SORTS).flatMap((key) => [key, `-${key}`]) as [string, ...string[]];

/** Checks that every group id names a group; 404 pointing at the first one that does not. */
async function requireGroups(db: Queryable, ids: string[], pointerOf: (index: number) => string): Promise<void> {
  const valid = ids.filter(isUuid);
  const found = valid.length
    ? new Set(
        (await db.select({ id: userGroup.id }).from(userGroup).where(inArray(userGroup.id, valid))).map((g) => g.id),
      )
    : new Set<string>();
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) {
    const detail = `Group '${ids[missing]}' not found.`;
    throw new ApiError(404, detail, {
      code: 'ResourceNotFoundException',
      issues: [{ detail, code: 'ResourceNotFoundException', source: { pointer: pointerOf(missing) } }],
    });
  }
}

/**
 * Users: list, read, create, change (including is_active), their groups, and the administrator's
 * actions on them (reset-password, set-temporary-password, link-to-provider).
 */
export function userRoutes(router: AtriumRouter, services: IdentityServices) {
  const { db } = services;
  const userResource = userResourceFor(db);

  router.get(
    '/users',
    {
      config: { jsonapi: true, access: P.readUser },
      schema: {
        summary: 'Lists users, 200 a page by default, in username order.',
        description:
          'Filters: filter[search] (part of the username, name or e-mail, any case), filter[username] (exact), ' +
          'filter[is_active] (true/false), filter[group] (a group id). sort: username, name, created_at, each ' +
          'with a leading - to descend. include=groups adds the groups.',
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(USER_PAGE_SIZE),
          'filter[search]': z.string().max(320).optional(),
          'filter[username]': z.string().max(320).optional(),
          'filter[is_active]': z.enum(['true', 'false']).optional(),
          'filter[group]': z.string().max(100).optional(),
          sort: z.enum(sortValues).optional(),
          include: z.literal('groups').optional(),
        }),
      },
    },
    async (request) => {
      const query = request.query;
      const page = toPageRequest(query);
      const conditions: (SQL | undefined)[] = [];
      const search = query['filter[search]'];
      if (search) {
        const pattern = `%${escapeLike(search.trim())}%`;
        conditions.push(or(ilike(user.username, pattern), ilike(user.name, pattern), ilike(user.email, pattern)));
      }
      if (query['filter[username]']) conditions.push(eq(user.username, normalizeUsername(query['filter[username]'])));
      if (query['filter[is_active]']) conditions.push(eq(user.enabled, query['filter[is_active]'] === 'true'));
      const group = query['filter[group]'];
      if (group !== undefined) {
        conditions.push(
          isUuid(group)
            ? inArray(
                user.id,
                db.select({ id: groupMember.userId }).from(groupMember).where(eq(groupMember.groupId, group)),
              )
            : sql`false`,
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const sort = query.sort ?? 'username';
      const column = SORTS[sort.replace(/^-/, '') as SortKey];
      const order = sort.startsWith('-') ? desc(column) : asc(column);
      const [total] = await db.select({ n: count() }).from(user).where(where);
      const rows = await db
        .select()
        .from(user)
        .where(where)
        .orderBy(order, asc(user.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${USER_MANAGEMENT_BASE}/users`, query, page, total?.n ?? 0);
      return serializeDocument(userResource, await withGroups(db, rows), {
        links,
        meta,
        include: query.include ? { groups: {} } : undefined,
      });
    },
  );

  router.get(
    '/users/:id',
    {
      config: { jsonapi: true, access: P.readUser },
      schema: {
        summary: 'One user with their groups; include=groups adds the group resources.',
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({ include: z.literal('groups').optional() }),
      },
    },
    async (request) =>
      serializeDocument(userResource, await loadUser(db, request.params.id), {
        include: request.query.include ? { groups: {} } : undefined,
      }),
  );

  router.post(
    '/users',
    {
      config: { jsonapi: true, access: P.createUser },
      schema: {
        summary: 'Creates a user with a temporary password (answered once in meta.temporary_password).',
        description:
          'username (an e-mail address) and name are required; email defaults to the username. The user signs in ' +
          'with the temporary password and is asked for a new one (NEW_PASSWORD_REQUIRED). relationships.groups ' +
          'puts them in groups. A taken username is 400 UsernameExistsException on /data/attributes/username.',
        tags,
        security,
        body: resourceDocument(
          'user',
          {
            username: emailAddress,
            name: personName,
            email: emailAddress.optional(),
            phone_number: phoneNumber.nullable().optional(),
            picture: pictureUrl.nullable().optional(),
            is_employee: z.boolean().optional(),
            contact_id: producerId.nullable().optional(),
            agency_id: producerId.nullable().optional(),
            is_active: z.boolean().optional(),
            temporary_password: z.string().min(1).max(256).optional(),
          },
          { relationships: { groups: toManyRelationship('group').optional() } },
        ),
      },
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      if (!attributes?.username) throw attributeProblem('username', 'This field is required.', 'required');
      if (!attributes.name) throw attributeProblem('name', 'This field is required.', 'required');
      const policy = await readPasswordPolicy(db);
      const temporaryPassword = attributes.temporary_password ?? generateTemporaryPassword(policy);
      const problems = passwordPolicyViolations(temporaryPassword, policy);
      if (problems.length > 0) {
        throw attributeProblem('temporary_password', problems[0]!, 'InvalidPasswordException');
      }
      await requireKnownContacts(services, attributes);
      const groupIds = [...new Set(relationships?.groups?.data.map((g) => g.id) ?? [])];
      const passwordHash = await services.hasher.hash(temporaryPassword);
      const now = services.clock.now();
      const created = await db
        .transaction(async (tx) => {
          await requireGroups(tx, groupIds, (i) => `/data/relationships/groups/data/${i}/id`);
          const [row] = await tx
            .insert(user)
            .values({
              username: attributes.username!,
              email: attributes.email ?? attributes.username!,
              emailVerified: false,
              name: attributes.name!,
              phoneNumber: attributes.phone_number ?? null,
              picture: attributes.picture ?? null,
              isEmployee: attributes.is_employee ?? false,
              contactId: attributes.contact_id ?? null,
              agencyId: attributes.agency_id ?? null,
              enabled: attributes.is_active ?? true,
              passwordHash,
              status: 'FORCE_CHANGE_PASSWORD',
              passwordChangedAt: now,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          if (groupIds.length > 0) {
            await tx
              .insert(groupMember)
              .values(groupIds.map((groupId) => ({ groupId, userId: row!.id, addedAt: now })));
          }
          const by = request.principal?.username ?? 'system';
          await emitEvent(tx, userCreated, userEventData(row!, by), { triggeringUser: by });
          return row!;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw attributeProblem('username', USERNAME_EXISTS, 'UsernameExistsException');
          }
          throw error;
        });
      reply.status(201);
      const document = await serializeDocument(userResource, { ...created, groupIds });
      return { ...document, meta: { temporary_password: temporaryPassword } };
    },
  );

  router.patch(
    '/users/:id',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: "Changes a user's attributes; is_active false disables the account and ends its sessions.",
        description:
          'A disabled user cannot sign in (NotAuthorizedException "User is disabled.") and their tokens stop ' +
          'working at once; is_active true enables them again. The username cannot change.',
        tags,
        security,
        params: idParams,
        body: resourceDocument(
          'user',
          {
            name: personName.optional(),
            email: emailAddress.optional(),
            email_verified: z.boolean().optional(),
            phone_number: phoneNumber.nullable().optional(),
            phone_number_verified: z.boolean().optional(),
            picture: pictureUrl.nullable().optional(),
            is_employee: z.boolean().optional(),
            contact_id: producerId.nullable().optional(),
            agency_id: producerId.nullable().optional(),
            is_active: z.boolean().optional(),
          },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const existing = await loadUser(db, request.params.id);
      const a = request.body.data.attributes ?? {};
      await requireKnownContacts(services, a);
      const changes: Partial<UserRecord> = {};
      if (a.name !== undefined) changes.name = a.name;
      if (a.email !== undefined && a.email !== existing.email) {
        changes.email = a.email;
        changes.emailVerified = false;
      }
      if (a.email_verified !== undefined) changes.emailVerified = a.email_verified;
      if (a.phone_number !== undefined && a.phone_number !== existing.phoneNumber) {
        changes.phoneNumber = a.phone_number;
        changes.phoneNumberVerified = false;
        if (a.phone_number === null) {
          changes.smsMfaEnabled = false;
          if (existing.preferredMfa === 'SMS_MFA') changes.preferredMfa = null;
        }
      }
      if (a.phone_number_verified !== undefined) {
        if (a.phone_number_verified && !(changes.phoneNumber ?? existing.phoneNumber)) {
          throw attributeProblem('phone_number_verified', 'The user has no phone number.', 'InvalidParameterException');
        }
        changes.phoneNumberVerified = a.phone_number_verified;
      }
      if (a.picture !== undefined) changes.picture = a.picture;
      if (a.is_employee !== undefined) changes.isEmployee = a.is_employee;
      if (a.contact_id !== undefined) changes.contactId = a.contact_id;
      if (a.agency_id !== undefined) changes.agencyId = a.agency_id;
      const deactivating = a.is_active === false && existing.enabled;
      if (a.is_active !== undefined) changes.enabled = a.is_active;
      const by = request.principal?.username ?? 'system';
      const updated = await db.transaction(async (tx) => {
        const row = await services.users.update(existing.id, changes, tx);
        if (deactivating) await services.sessions.revokeAllOf(existing.id, 'admin', tx);
        // The attribute names as the API spells them (never their values: e-mails and phones stay out).
        const changed = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
        await emitEvent(tx, userUpdated, userEventData(row, by, changed), { triggeringUser: by });
        if (deactivating) await emitEvent(tx, userDeactivated, userEventData(row, by), { triggeringUser: by });
        return row;
      });
      if (deactivating) services.forgetSessionSnapshots();
      return serializeDocument(userResource, { ...updated, groupIds: existing.groupIds });
    },
  );

  // ── Groups of a user ────────────────────────────────────────────────────────────────────────

  const groupIdentifiers = async (userId: string) => ({
    jsonapi: { version: '1.1' as const },
    data: (await loadUser(db, userId)).groupIds.map((id) => ({ type: 'group', id })),
  });

  router.get(
    '/users/:id/relationships/groups',
    {
      config: { jsonapi: true, access: P.readUser },
      schema: { summary: "The user's groups as group resource identifiers.", tags, security, params: idParams },
    },
    async (request) => groupIdentifiers(request.params.id),
  );

  router.post(
    '/users/:id/relationships/groups',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: 'Adds the user to the groups listed (already a member: no change); answers the groups.',
        description: 'An unknown group is 404 pointing at its identifier, and no group is added.',
        tags,
        security,
        params: idParams,
        body: relationshipDocument('group'),
      },
    },
    async (request) => {
      const target = await loadUser(db, request.params.id);
      const ids = request.body.data.map((g) => g.id);
      const now = services.clock.now();
      await db.transaction(async (tx) => {
        await requireGroups(tx, ids, (i) => `/data/${i}/id`);
        if (ids.length > 0) {
          await tx
            .insert(groupMember)
            .values([...new Set(ids)].map((groupId) => ({ groupId, userId: target.id, addedAt: now })))
            .onConflictDoNothing();
        }
      });
      services.forgetSessionSnapshots();
      return groupIdentifiers(target.id);
    },
  );

  router.delete(
    '/users/:id/relationships/groups',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: 'Removes the user from the groups listed (not a member: no change); answers the groups.',
        description: 'An unknown group is 404 pointing at its identifier, and no group is removed.',
        tags,
        security,
        params: idParams,
        body: relationshipDocument('group'),
      },
    },
    async (request) => {
      const target = await loadUser(db, request.params.id);
      const ids = request.body.data.map((g) => g.id);
      await requireGroups(db, ids, (i) => `/data/${i}/id`);
      if (ids.length > 0) {
        await db.delete(groupMember).where(and(eq(groupMember.userId, target.id), inArray(groupMember.groupId, ids)));
      }
      services.forgetSessionSnapshots();
      return groupIdentifiers(target.id);
    },
  );

  // ── Administrator actions ───────────────────────────────────────────────────────────────────

  router.post(
    '/users/:id/reset-password',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: 'Requires the user to reset their password: their sessions end at once.',
        description:
          'The next sign-in answers PasswordResetRequiredException and e-mails a reset code; the user then sets a ' +
          'new password with forgot-password/confirm. No body.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const target = await loadUser(db, request.params.id);
      const updated = await db.transaction(async (tx) => {
        const row = await services.users.update(target.id, { status: 'RESET_REQUIRED' }, tx);
        await services.sessions.revokeAllOf(target.id, 'admin', tx);
        return row;
      });
      services.forgetSessionSnapshots();
      return serializeDocument(userResource, { ...updated, groupIds: target.groupIds });
    },
  );

  router.post(
    '/users/:id/set-temporary-password',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: 'Sets a temporary password, answered in meta.temporary_password; the next sign-in asks for a new one.',
        description:
          'Without a body a password is generated; { "meta": { "temporary_password": "…" } } chooses it (it must ' +
          'satisfy the password policy). The sign-in answers NEW_PASSWORD_REQUIRED until the temporary password ' +
          "expires (the policy's temporary_password_validity_days). The user's sessions end.",
        tags,
        security,
        params: idParams,
        body: z
          .strictObject({
            meta: z.strictObject({ temporary_password: z.string().min(1).max(256).optional() }).optional(),
          })
          .nullish(),
      },
    },
    async (request) => {
      const target = await loadUser(db, request.params.id);
      const policy = await readPasswordPolicy(db);
      const chosen = request.body?.meta?.temporary_password;
      const temporaryPassword = chosen ?? generateTemporaryPassword(policy);
      const problems = passwordPolicyViolations(temporaryPassword, policy);
      if (problems.length > 0) {
        throw new ApiError(400, problems[0]!, {
          code: 'InvalidPasswordException',
          source: { pointer: '/meta/temporary_password' },
        });
      }
      const updated = await db.transaction(async (tx) => {
        const row = await services.users.setPassword(
          target,
          temporaryPassword,
          'FORCE_CHANGE_PASSWORD',
          policy.password_history_size,
          tx,
        );
        await services.sessions.revokeAllOf(target.id, 'admin', tx);
        return row;
      });
      services.forgetSessionSnapshots();
      const document = await serializeDocument(userResource, { ...updated, groupIds: target.groupIds });
      return { ...document, meta: { temporary_password: temporaryPassword } };
    },
  );

  router.post(
    '/users/:id/actions/link-to-provider',
    {
      config: { jsonapi: true, access: P.updateUser },
      schema: {
        summary: "Links the user to their account at an external OpenID Connect provider (by the provider's name).",
        description:
          'provider_name names a configured provider (400 when none has it); provider_user_id is the subject (sub) ' +
          'the provider gives the user. That account then signs in as this user. An account already linked to ' +
          'another user is 400; linking the same account again changes nothing.',
        tags,
        security,
        params: idParams,
        body: resourceDocument('provider-link', {
          provider_name: z.string().trim().min(1).max(200),
          provider_user_id: z.string().trim().min(1).max(255),
        }),
      },
    },
    async (request, reply) => {
      const target = await loadUser(db, request.params.id);
      const attributes = request.body.data.attributes;
      if (!attributes?.provider_name) throw attributeProblem('provider_name', 'This field is required.', 'required');
      if (!attributes.provider_user_id) {
        throw attributeProblem('provider_user_id', 'This field is required.', 'required');
      }
      const [provider] = await db
        .select({ id: oidcProvider.id, name: oidcProvider.name })
        .from(oidcProvider)
        .where(sql`lower(${oidcProvider.name}) = lower(${attributes.provider_name})`)
        .limit(1);
      if (!provider) {
        throw attributeProblem(
          'provider_name',
          `No identity provider is named '${attributes.provider_name}'.`,
          'InvalidParameterException',
        );
      }
      const subject = attributes.provider_user_id;
      const link = await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(federatedIdentity)
          .where(and(eq(federatedIdentity.providerId, provider.id), eq(federatedIdentity.subject, subject)))
          .limit(1);
        if (existing && existing.userId !== target.id) {
          throw attributeProblem(
            'provider_user_id',
            'This provider account is already linked to another user.',
            'AliasExistsException',
          );
        }
        if (existing) return { row: existing, created: false };
        const [row] = await tx
          .insert(federatedIdentity)
          .values({ providerId: provider.id, subject, userId: target.id, linkedAt: services.clock.now() })
          .returning();
        return { row: row!, created: true };
      });
      reply.status(link.created ? 201 : 200);
      return {
        jsonapi: { version: '1.1' as const },
        data: {
          type: 'provider-link',
          id: `${provider.id}:${subject}`,
          attributes: {
            provider_name: provider.name,
            provider_user_id: subject,
            linked_at: link.row.linkedAt.toISOString(),
          },
          relationships: { user: { data: { type: 'user', id: target.id } } },
        },
      };
    },
  );
}
