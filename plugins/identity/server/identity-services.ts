import { asc, eq } from 'drizzle-orm';
import type { Database, PlatformServices, Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import { AccessTokens } from './access-tokens.js';
import { systemClock, type Clock } from './clock.js';
import { OutboxCodeSender, type CodeSender } from './code-sender.js';
import { Housekeeping } from './identity-housekeeping.js';
import { OidcClientSecrets } from './oidc-client-secrets.js';
import { PasswordHasher, type PasswordHashingOptions } from './password-hasher.js';
import { RateLimiter } from './rate-limiter.js';
import { SessionStore } from './session-store.js';
import { SignInChallenges } from './sign-in-challenges.js';
import type { SignInRateLimits } from './sign-in-rate-limits.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { SigningKeys } from './signing-keys.js';
import { groupMember, userGroup } from './tables.js';
import { UserStore } from './user-store.js';
import { VerificationCodes } from './verification-codes.js';

export interface IdentityPluginOptions {
  /** Time source for lockouts, expiry and token lifetimes; tests pass a ManualClock. */
  clock?: Clock;
  /** Delivers SMS and e-mail codes; defaults to the outbox table. */
  codeSender?: (context: ServerPluginContext, clock: Clock) => CodeSender;
  passwordHashing?: PasswordHashingOptions;
  /** `iss` of access tokens. */
  issuer?: string;
  /** `aud` of access tokens. */
  audience?: string;
  /**
   * Serve GET /api/identity/dev/outbox. Default: on when NODE_ENV is development or test or
   * ATRIUM_DEV_OUTBOX=true, and never when NODE_ENV is production.
   */
  devOutboxRoute?: boolean;
  /**
   * Called once for a username that has no account (the identity provider's user-migration
   * trigger): it may create the user from a legacy system and answer true, and sign-in tries again
   * once. Without it an unknown user answers exactly like a wrong password.
   */
  migrateUnknownUser?: (request: { username: string; password: string }) => Promise<boolean>;
  /** The issuer name shown in authenticator apps. */
  totpIssuer?: string;
  /** Per-source and global limits on sign-in, challenge and password-reset routes (per minute). */
  signInRateLimits?: SignInRateLimits;
}

export const DEFAULT_ISSUER = 'urn:atrium:identity';
export const DEFAULT_AUDIENCE = 'urn:atrium:api';

/** Everything the identity routes and the authenticator share, built once per database. */
export class IdentityServices {
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  readonly users: UserStore;
  readonly throttle: SignInThrottle;
  readonly rateLimiter: RateLimiter;
  readonly codes: VerificationCodes;
  readonly challenges: SignInChallenges;
  readonly codeSender: CodeSender;
  readonly keys: SigningKeys;
  readonly accessTokens: AccessTokens;
  readonly sessions: SessionStore;
  readonly housekeeping: Housekeeping;
  readonly oidcSecrets: OidcClientSecrets;
  private readonly platform: PlatformServices | undefined;
  private readonly context: ServerPluginContext;

  constructor(
    readonly db: Database,
    context: ServerPluginContext,
    readonly options: IdentityPluginOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.hasher = new PasswordHasher(options.passwordHashing);
    this.users = new UserStore(db, this.clock, this.hasher, context.secrets);
    this.throttle = new SignInThrottle(db, this.clock);
    this.rateLimiter = new RateLimiter(db, this.clock);
    this.codes = new VerificationCodes(db, this.clock);
    this.challenges = new SignInChallenges(db, this.clock);
    this.codeSender = options.codeSender?.(context, this.clock) ?? new OutboxCodeSender(db, this.clock);
    this.keys = new SigningKeys(db, this.clock);
    this.accessTokens = new AccessTokens(this.keys, this.clock, {
      issuer: options.issuer ?? DEFAULT_ISSUER,
      audience: options.audience ?? DEFAULT_AUDIENCE,
    });
    this.sessions = new SessionStore(db, this.clock);
    this.platform = context.services;
    this.context = context;
    this.oidcSecrets = new OidcClientSecrets(db, context.secrets);
    this.housekeeping = new Housekeeping(
      db,
      this.clock,
      (error) => context.log.warn({ err: error }, 'identity housekeeping failed'),
      [() => this.users.sealStoredSecrets(), () => this.oidcSecrets.sealStored()],
    );
  }

  /**
   * The ids among `ids` the contact store does not know (a user's contact_id and agency_id name
   * store contacts, docs/contacts.md). Without the contacts module installed every id is taken as
   * given: identity does not depend on it.
   */
  async unknownContacts(tx: Queryable, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const directory = this.context.optionalService(CONTACT_DIRECTORY);
    if (!directory) return [];
    const known = new Set((await directory.findContacts(tx, ids)).map((c) => c.id));
    return ids.filter((id) => !known.has(id));
  }

  /**
   * The roles a user holds: the access module's answer (its role directory) when it is installed,
   * else the user's own `roles` column.
   */
  async rolesOf(record: { id: string; username: string; roles: string[] }): Promise<string[]> {
    if (!this.platform?.roleDirectory) return record.roles;
    return this.rolesFor(record, await this.groupNamesOf(record.id));
  }

  /** As rolesOf, for a caller that already knows the user's groups (the authenticator caches them). */
  rolesFor(record: { username: string; roles: string[] }, groups: string[]): string[] | Promise<string[]> {
    const directory = this.platform?.roleDirectory;
    if (!directory) return record.roles;
    return directory.rolesOf({ username: record.username, groups });
  }

  /** The names of the groups (user management) a user belongs to, in name order. */
  async groupNamesOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ name: userGroup.name })
      .from(groupMember)
      .innerJoin(userGroup, eq(userGroup.id, groupMember.groupId))
      .where(eq(groupMember.userId, userId))
      .orderBy(asc(userGroup.name));
    return rows.map((row) => row.name);
  }

  /**
   * Drops the authenticator's cached session snapshots (roles included), for changes that alter
   * what a signed-in user holds without ending their session: group membership, group names.
   */
  forgetSessionSnapshots(): void {
    this.sessions.onRevoke();
  }
}

/** One IdentityServices per database, shared by the authenticator and the routes of one plugin instance. */
export function identityServicesRegistry(options: IdentityPluginOptions) {
  const byDatabase = new WeakMap<Database, IdentityServices>();
  return (context: ServerPluginContext): IdentityServices => {
    let services = byDatabase.get(context.db);
    if (!services) {
      services = new IdentityServices(context.db, context, options);
      byDatabase.set(context.db, services);
    }
    return services;
  };
}
