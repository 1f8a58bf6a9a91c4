import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Tables of the identity module: users and their credentials, sessions (refresh-token families),
 * challenges, one-time codes and their outbox, throttles, signing keys, settings and external
 * OpenID Connect providers. Every time column is written from the module's injectable clock, never
 * from the database's now(), so that tests can move time.
 */
export const identity = pgSchema('identity');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A person who signs in. `username` is the e-mail address, lower-cased. `roles` is a plain list of
 * role names until the access module brings roles and assignments (it replaces this column).
 */
export const user = identity.table(
  'user',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    name: text('name').notNull(),
    phoneNumber: text('phone_number'),
    phoneNumberVerified: boolean('phone_number_verified').notNull().default(false),
    picture: text('picture'),
    /** argon2id PHC string. */
    passwordHash: text('password_hash').notNull(),
    /** CONFIRMED, FORCE_CHANGE_PASSWORD (temporary password) or RESET_REQUIRED. */
    status: text('status').notNull().default('CONFIRMED'),
    enabled: boolean('enabled').notNull().default(true),
    isEmployee: boolean('is_employee').notNull().default(false),
    /**
     * For agents and agencies: the contact that stands for this person as a producer, and the
     * agency contact they write for. Record conditions compare them with the agent and agency of a
     * policy (docs/security.md, "Who reads which records"); the contact store will make them references.
     */
    contactId: text('contact_id'),
    agencyId: text('agency_id'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    smsMfaEnabled: boolean('sms_mfa_enabled').notNull().default(false),
    softwareTokenMfaEnabled: boolean('software_token_mfa_enabled').notNull().default(false),
    /** SMS_MFA or SOFTWARE_TOKEN_MFA, null when none is preferred. */
    preferredMfa: text('preferred_mfa'),
    /** Base32 TOTP secret of the verified authenticator app, sealed by the secrets service (user-store.ts). */
    totpSecret: text('totp_secret'),
    /** A secret handed out by enrolment, waiting for its first code; sealed like totp_secret. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last RFC 6238 time step accepted, so that a code works once. */
    totpLastUsedStep: integer('totp_last_used_step'),
    /** Global sign-out: access tokens issued before this instant are refused. */
    tokensValidAfter: timestamptz('tokens_valid_after'),
    passwordChangedAt: timestamptz('password_changed_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [uniqueIndex('user_username_key').on(table.username)],
);

/** PostgreSQL bytea, read back as a Buffer whichever driver answers (node-postgres or PGlite). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array | string }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => {
    if (Buffer.isBuffer(value)) return value;
    if (typeof value === 'string') return Buffer.from(value.replace(/^\\x/, ''), 'hex');
    return Buffer.from(value);
  },
});

/**
 * A user's uploaded profile picture (PNG, JPEG or WebP, at most 2 MB), served by
 * GET user-management/users/{id}/picture; `sha256` (hex) is its ETag.
 */
export const userPicture = identity.table('user_picture', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  sha256: text('sha256').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** Earlier password hashes, checked against the policy's history size. */
export const passwordHistory = identity.table(
  'password_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('password_history_user_idx').on(table.userId, table.createdAt)],
);

/** One sign-in session: every refresh token rotated from one sign-in belongs to one family. */
export const refreshTokenFamily = identity.table(
  'refresh_token_family',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
    /** The session cannot be refreshed past this instant (session timeout, at most 30 days). */
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** sign-out, global-sign-out, reuse, password-reset, admin. */
    revokedReason: text('revoked_reason'),
  },
  (table) => [index('refresh_token_family_user_idx').on(table.userId)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; `rotatedAt` is set when one is used. */
export const refreshToken = identity.table(
  'refresh_token',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => refreshTokenFamily.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    rotatedAt: timestamptz('rotated_at'),
  },
  (table) => [
    uniqueIndex('refresh_token_hash_key').on(table.tokenHash),
    index('refresh_token_family_idx').on(table.familyId),
  ],
);

/**
 * A sign-in paused at a challenge (NEW_PASSWORD_REQUIRED, SMS_MFA, SOFTWARE_TOKEN_MFA). The client
 * holds the opaque session string; only its hash is stored. Expires after 3 minutes.
 */
export const signInChallenge = identity.table(
  'sign_in_challenge',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionHash: text('session_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    challengeName: text('challenge_name').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    completedAt: timestamptz('completed_at'),
    resendCount: integer('resend_count').notNull().default(0),
  },
  (table) => [uniqueIndex('sign_in_challenge_session_key').on(table.sessionHash)],
);

/** One-time codes sent by SMS or e-mail (MFA, forgot password). Stored hashed; 10 minutes. */
export const verificationCode = identity.table(
  'verification_code',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** sms-mfa or forgot-password. */
    purpose: text('purpose').notNull(),
    /** The challenge an SMS MFA code answers; null for forgot-password codes. */
    challengeId: uuid('challenge_id'),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Used, or replaced by a newer code for the same purpose. */
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [index('verification_code_user_idx').on(table.userId, table.purpose)],
);

/**
 * What the default code sender delivers: one row per SMS or e-mail. Tests and the development
 * outbox page read it; production senders plug in behind the CodeSender interface instead.
 */
export const messageOutbox = identity.table(
  'message_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel').notNull(),
    destination: text('destination').notNull(),
    username: text('username').notNull(),
    purpose: text('purpose').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    code: text('code').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('message_outbox_destination_idx').on(table.destination)],
);

/**
 * Failed-attempt counters per account (keyed by the lower-cased username, also for usernames that
 * do not exist, so that throttling tells nothing about existence).
 */
export const signInThrottle = identity.table('sign_in_throttle', {
  username: text('username').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  lockedUntil: timestamptz('locked_until'),
  windowStartedAt: timestamptz('window_started_at').notNull(),
  windowFailures: integer('window_failures').notNull().default(0),
});

/** Fixed one-hour windows counting events per key (forgot-password requests, code deliveries). */
export const rateCounter = identity.table('rate_counter', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamptz('window_started_at').notNull(),
  count: integer('count').notNull().default(0),
});

/** Access-token signing keys, generated on first start. Retired keys still verify until removed. */
export const signingKey = identity.table('signing_key', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  privateJwk: jsonb('private_jwk').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  retiredAt: timestamptz('retired_at'),
});

/** Module settings by key: `password-policy`, `mfa-settings`. Values are JSON. */
export const identitySetting = identity.table('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** External OpenID Connect providers an administrator configured (code flow with PKCE). */
export const oidcProvider = identity.table(
  'oidc_provider',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret'),
    scopes: text('scopes').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Sign in the local user whose username is the provider's verified e-mail, linking them on first use. */
    linkByEmail: boolean('link_by_email').notNull().default(false),
    /**
     * The only redirect URIs an authorization may name (exact match), as registered at the provider;
     * anything else would hand the provider's code to another site (docs/security.md).
     */
    redirectUris: text('redirect_uris')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [uniqueIndex('oidc_provider_name_key').on(table.name)],
);

/** A user's account at an external provider, linked to the local user. */
export const federatedIdentity = identity.table(
  'federated_identity',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => oidcProvider.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    linkedAt: timestamptz('linked_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.providerId, table.subject] })],
);

/**
 * One authorization request to an external provider, from its start to its callback: the state
 * (hashed), the PKCE verifier and nonce, the redirect URI, and for linking the user it links.
 * Expires after 10 minutes and is used once.
 */
export const oidcAuthorization = identity.table(
  'oidc_authorization',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stateHash: text('state_hash').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => oidcProvider.id, { onDelete: 'cascade' }),
    /** sign-in or link. */
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [uniqueIndex('oidc_authorization_state_key').on(table.stateHash)],
);

/**
 * A named group of users (user management). Group names are unique in any case; the access module
 * assigns roles to groups by name (role-group-name assignments), so a member holds those roles.
 */
export const userGroup = identity.table(
  'group',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [uniqueIndex('group_name_key').on(sql`lower(${table.name})`)],
);

/** Which users belong to which groups. */
export const groupMember = identity.table(
  'group_member',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => userGroup.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    addedAt: timestamptz('added_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index('group_member_user_idx').on(table.userId)],
);

/**
 * A machine client (user management `app-clients`): it authenticates with its client id and secret
 * and acts in exactly one role. Only the SHA-256 of the secret is kept; the secret is shown once.
 */
export const appClient = identity.table(
  'app_client',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    role: text('role').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (table) => [uniqueIndex('app_client_name_key').on(sql`lower(${table.name})`)],
);

/**
 * The change counter of everything a cached authentication depends on: users (enabled, roles,
 * global sign-out), sessions (revocation), groups and memberships, machine clients and signing
 * keys. Triggers bump it in the writing transaction (migration 0004), so no write path can forget
 * to; every server process compares it with the revision its cached sessions were read at
 * (authentication-cache.ts).
 */
export const identityRevision = identity.table('revision', {
  id: integer('id').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull(),
  changedAt: timestamptz('changed_at').notNull().defaultNow(),
});
