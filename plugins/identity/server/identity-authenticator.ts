import { eq } from 'drizzle-orm';
import { ApiError, type Authenticator, type Database, type Principal } from '@atrium/sdk/server';
import { InvalidAccessToken, type AccessTokenClaims } from './access-tokens.js';
import { resolveEffectiveRole } from './effective-role.js';
import { LoadingCache } from './loading-cache.js';
import { readIdentityRevision, RevisionWatch } from './revision-watch.js';
import type { IdentityServices } from './identity-services.js';
import { appClient, refreshTokenFamily, user } from './tables.js';

/**
 * Resolves the caller of every non-public route from `Authorization: Bearer <access token>`. A
 * token that is forged, expired, of another issuer or audience, or whose session was ended (sign-out,
 * refresh-token reuse, global sign-out, password reset, disabled user) answers 401.
 *
 * What a request needs besides the token — the session row with its user, the user's groups, a
 * machine client's row — is read once and kept until the identity revision moves (revision-watch.ts):
 * at once for changes made through this process, within REVISION_CHECK_MS for changes made by any
 * other. The roles come from the access module's role directory on every request; it answers from
 * its own snapshot, which follows the access revision the same way.
 */
export function createIdentityAuthenticator(services: IdentityServices): Authenticator {
  const watch = new RevisionWatch(() => readIdentityRevision(services.db));
  const sessions = new LoadingCache<SessionSnapshot | null>();
  const clients = new LoadingCache<ClientRow | null>();
  watch.onChange(() => {
    sessions.clear();
    clients.clear();
    services.accessTokens.forgetVerified();
    services.keys.forget();
  });
  services.sessions.onRevoke = () => watch.changed();

  const invalidToken = () =>
    new ApiError(401, undefined, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });

  return {
    async authenticate(request) {
      const header = request.headers.authorization;
      const value = Array.isArray(header) ? header[0] : header;
      if (!value) return null;
      const match = BEARER.exec(value);
      if (!match) throw new ApiError(401, undefined, { headers: { 'www-authenticate': 'Bearer' } });
      const checking = watch.check();
      if (checking) await checking;
      let claims;
      try {
        claims = await services.accessTokens.verify(match[1]!);
      } catch (error) {
        if (error instanceof InvalidAccessToken) throw invalidToken();
        throw error;
      }
      if (claims.kind === 'client') {
        const client = await clients.get(claims.sub, () => clientOf(services.db, claims.sub));
        if (!client || client.revokedAt || claims.iat * 1000 < Math.floor(client.createdAt.getTime() / 1000) * 1000) {
          throw invalidToken();
        }
        // A machine client acts in its one role; X-Effective-Role cannot change it.
        const clientPrincipal: Principal = {
          kind: 'client',
          subject: client.id,
          username: `app-client:${client.name}`,
          effectiveRole: client.role,
          roles: [client.role],
          attributes: { clientName: client.name, tokenId: claims.jti, issuedAt: claims.iat, expiresAt: claims.exp },
        };
        return clientPrincipal;
      }
      const snapshot = await sessions.get(`${claims.sub}:${claims.sid}`, () => snapshotOf(services, claims));
      if (!snapshot || isRevoked(snapshot.session, claims.iat)) throw invalidToken();
      const { session } = snapshot;
      const roles = await services.rolesFor(session, snapshot.groups);
      const principal: Principal = {
        kind: 'user',
        subject: session.userId,
        username: session.username,
        effectiveRole: resolveEffectiveRole(request.headers, roles),
        roles,
        attributes: {
          name: session.name,
          email: session.email,
          isEmployee: session.isEmployee,
          // user.contact_id and user.agency_id in access conditions (agents' and agencies' records).
          contact_id: session.contactId,
          agency_id: session.agencyId,
          sessionId: claims.sid,
          tokenId: claims.jti,
          issuedAt: claims.iat,
          expiresAt: claims.exp,
        },
      };
      return principal;
    },
  };
}

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i;

/** A session as the authenticator keeps it: the session and its user, and the user's groups. */
interface SessionSnapshot {
  session: SessionRow;
  groups: string[];
}

async function snapshotOf(services: IdentityServices, claims: AccessTokenClaims): Promise<SessionSnapshot | null> {
  const session = await sessionOf(services.db, claims.sub, claims.sid);
  if (!session) return null;
  return { session, groups: await services.groupNamesOf(session.userId) };
}

interface ClientRow {
  id: string;
  name: string;
  role: string;
  createdAt: Date;
  revokedAt: Date | null;
}

async function clientOf(db: Database, clientId: string): Promise<ClientRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(clientId)) return null;
  const [row] = await db
    .select({
      id: appClient.id,
      name: appClient.name,
      role: appClient.role,
      createdAt: appClient.createdAt,
      revokedAt: appClient.revokedAt,
    })
    .from(appClient)
    .where(eq(appClient.id, clientId))
    .limit(1);
  return row ?? null;
}

interface SessionRow {
  userId: string;
  username: string;
  name: string;
  email: string;
  isEmployee: boolean;
  contactId: string | null;
  agencyId: string | null;
  roles: string[];
  enabled: boolean;
  tokensValidAfter: Date | null;
  sessionRevokedAt: Date | null;
}

async function sessionOf(db: Database, userId: string, sessionId: string): Promise<SessionRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(userId) || !/^[0-9a-f-]{36}$/i.test(sessionId)) return undefined;
  const [row] = await db
    .select({
      userId: user.id,
      username: user.username,
      name: user.name,
      email: user.email,
      isEmployee: user.isEmployee,
      contactId: user.contactId,
      agencyId: user.agencyId,
      roles: user.roles,
      enabled: user.enabled,
      tokensValidAfter: user.tokensValidAfter,
      sessionRevokedAt: refreshTokenFamily.revokedAt,
      sessionUserId: refreshTokenFamily.userId,
    })
    .from(user)
    .innerJoin(refreshTokenFamily, eq(refreshTokenFamily.id, sessionId))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row || row.sessionUserId !== row.userId) return undefined;
  return row;
}

function isRevoked(session: SessionRow, issuedAtSeconds: number): boolean {
  if (!session.enabled || session.sessionRevokedAt) return true;
  return !!session.tokensValidAfter && issuedAtSeconds * 1000 < session.tokensValidAfter.getTime();
}

/**
 * For routes that move money or change access: true when the caller's token has been revoked since
 * the request was authenticated (the authenticator already refuses tokens revoked before it ran).
 */
export async function tokenIsRevoked(db: Database, principal: Principal): Promise<boolean> {
  const sessionId = principal.attributes?.sessionId;
  const issuedAt = principal.attributes?.issuedAt;
  if (principal.kind !== 'user' || typeof sessionId !== 'string' || typeof issuedAt !== 'number') return true;
  const session = await sessionOf(db, principal.subject, sessionId);
  return !session || isRevoked(session, issuedAt);
}
