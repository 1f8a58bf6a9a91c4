import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { badRequest, conflict, type Database, type Secrets } from '@atrium/sdk/server';
import {
  VENDOR_LABELS,
  type ConnectionStatus,
  type ConnectionView,
  type VendorEnvironment,
  type VendorId,
} from '../../shared/vendors.js';
import { authorization, connection } from '../tables.js';
import {
  authorizationUrl,
  oauthErrorMessage,
  redeemCode,
  refresh,
  revoke,
  type AppCredentials,
  type TokenSet,
} from './oauth-client.js';

type Row = typeof connection.$inferSelect;

/** Spec 5: the message when a callback's state is not one this server handed out. */
export const STATE_MISMATCH = "Local state's nonce does not match received value";
const AUTHORIZATION_LIFETIME_MS = 10 * 60_000;
/** Refresh an access token this long before it expires, so no call goes out with a dying token. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const sealContext = (vendor: VendorId, what: string) => `vendors.connection.${what}:${vendor}`;

/** Thrown when a vendor call cannot be made: not connected, or the connection lapsed. */
export class NotConnected extends Error {}

/**
 * The one OAuth framework both vendors use: app credentials and environment, the authorization
 * (state + PKCE, consumed once), tokens sealed at rest, refresh before expiry (one process at a
 * time, the row locked), status, last sync and last error, disconnect with revocation.
 */
export class VendorConnections {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Whether the vendor is connected (has tokens); reads only, so a background poll writes nothing. */
  async connected(vendor: VendorId): Promise<boolean> {
    const [row] = await this.db
      .select({ token: connection.accessTokenSealed })
      .from(connection)
      .where(eq(connection.vendor, vendor));
    return Boolean(row?.token);
  }

  async row(vendor: VendorId): Promise<Row> {
    await this.db.insert(connection).values({ vendor }).onConflictDoNothing();
    const [row] = await this.db.select().from(connection).where(eq(connection.vendor, vendor));
    return row!;
  }

  status(row: Row): ConnectionStatus {
    if (!row.clientId || !row.clientSecretSealed) return 'not_configured';
    if (!row.accessTokenSealed) return 'disconnected';
    if (row.refreshExpiresAt && row.refreshExpiresAt <= this.now()) return 'expired';
    if (row.lastErrorAt && (!row.lastSyncAt || row.lastErrorAt > row.lastSyncAt)) return 'error';
    return 'connected';
  }

  present(row: Row): ConnectionView {
    const vendor = row.vendor as VendorId;
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return {
      vendor,
      name: VENDOR_LABELS[vendor].name,
      kind: VENDOR_LABELS[vendor].kind,
      environment: row.environment as VendorEnvironment,
      status: this.status(row),
      client_id: row.clientId,
      client_secret_set: Boolean(row.clientSecretSealed),
      account_id: row.accountId,
      account_name: row.accountName,
      connected_by: row.connectedBy,
      connected_at: iso(row.connectedAt),
      access_expires_at: iso(row.accessExpiresAt),
      last_refresh_at: iso(row.lastRefreshAt),
      last_sync_at: iso(row.lastSyncAt),
      last_error: row.lastError,
      last_error_at: iso(row.lastErrorAt),
      settings: row.settings,
    };
  }

  async view(vendor: VendorId): Promise<ConnectionView> {
    return this.present(await this.row(vendor));
  }

  /**
   * Sets app credentials, environment and settings. Tokens belong to one environment's account, so
   * switching environment or app while connected is refused: disconnect first.
   */
  async configure(
    vendor: VendorId,
    change: {
      environment?: VendorEnvironment;
      clientId?: string;
      clientSecret?: string;
      settings?: Record<string, string>;
    },
  ): Promise<ConnectionView> {
    const row = await this.row(vendor);
    const connected = Boolean(row.accessTokenSealed);
    const switching =
      (change.environment !== undefined && change.environment !== row.environment) ||
      (change.clientId !== undefined && change.clientId !== row.clientId) ||
      change.clientSecret !== undefined;
    if (connected && switching) {
      throw conflict(`Disconnect ${VENDOR_LABELS[vendor].name} before changing its environment or app credentials.`);
    }
    const [updated] = await this.db
      .update(connection)
      .set({
        ...(change.environment !== undefined ? { environment: change.environment } : {}),
        ...(change.clientId !== undefined ? { clientId: change.clientId } : {}),
        ...(change.clientSecret !== undefined
          ? { clientSecretSealed: this.secrets.seal(change.clientSecret, sealContext(vendor, 'client_secret')) }
          : {}),
        ...(change.settings !== undefined ? { settings: { ...row.settings, ...change.settings } } : {}),
        updatedAt: this.now(),
      })
      .where(eq(connection.vendor, vendor))
      .returning();
    return this.present(updated!);
  }

  app(row: Row): AppCredentials {
    if (!row.clientId || !row.clientSecretSealed) {
      throw badRequest(`Set the ${VENDOR_LABELS[row.vendor as VendorId].name} app's client id and secret first.`);
    }
    return {
      vendor: row.vendor as VendorId,
      environment: row.environment as VendorEnvironment,
      clientId: row.clientId,
      clientSecret: this.secrets.open(row.clientSecretSealed, sealContext(row.vendor as VendorId, 'client_secret')),
    };
  }

  /** Starts a connection: the authorization URL the popup opens. */
  async start(vendor: VendorId, redirectUri: string, username: string): Promise<string> {
    const row = await this.row(vendor);
    const app = this.app(row);
    const { url, state, codeVerifier } = await authorizationUrl(app, redirectUri);
    await this.db.insert(authorization).values({
      vendor,
      environment: row.environment,
      stateHash: sha256(state),
      codeVerifierSealed: this.secrets.seal(codeVerifier, `vendors.authorization.code_verifier:${vendor}`),
      redirectUri,
      startedBy: username,
      createdAt: this.now(),
    });
    return url;
  }

  /**
   * Finishes a connection with the popup's callback parameters: the state must be one this server
   * handed out within ten minutes, unused, for the same environment; the code is redeemed with the
   * PKCE verifier; `onConnected` reads what the vendor needs (DocuSign's account) before saving.
   */
  async finish(
    params: Record<string, string>,
    username: string,
    onConnected?: (vendor: VendorId, app: AppCredentials, tokens: TokenSet, row: Row) => Promise<Partial<Row>>,
  ): Promise<ConnectionView> {
    const state = params.state ?? '';
    const [pending] = state
      ? await this.db
          .update(authorization)
          .set({ consumedAt: this.now() })
          .where(
            and(
              eq(authorization.stateHash, sha256(state)),
              isNull(authorization.consumedAt),
              gt(authorization.createdAt, new Date(this.now().getTime() - AUTHORIZATION_LIFETIME_MS)),
            ),
          )
          .returning()
      : [];
    if (!pending) throw badRequest(STATE_MISMATCH);
    const vendor = pending.vendor as VendorId;
    const row = await this.row(vendor);
    if (row.environment !== pending.environment) {
      throw conflict('The environment changed while connecting. Connect again.');
    }
    const app = this.app(row);
    const codeVerifier = this.secrets.open(pending.codeVerifierSealed, `vendors.authorization.code_verifier:${vendor}`);
    const callbackUrl = new URL(pending.redirectUri);
    for (const [key, value] of Object.entries(params)) callbackUrl.searchParams.set(key, value);
    let tokens: TokenSet;
    let extra: Partial<Row> = {};
    try {
      tokens = await redeemCode(app, callbackUrl, { state, codeVerifier });
      if (onConnected) extra = await onConnected(vendor, app, tokens, row);
    } catch (error) {
      const message = oauthErrorMessage(error);
      await this.recordError(vendor, `Connecting failed: ${message}`);
      throw badRequest(`Connecting ${VENDOR_LABELS[vendor].name} failed: ${message}`);
    }
    const now = this.now();
    const [updated] = await this.db
      .update(connection)
      .set({
        ...this.tokenColumns(vendor, tokens, now),
        connectedBy: username,
        connectedAt: now,
        lastError: null,
        lastErrorAt: null,
        ...extra,
        updatedAt: now,
      })
      .where(eq(connection.vendor, vendor))
      .returning();
    return this.present(updated!);
  }

  private tokenColumns(vendor: VendorId, tokens: TokenSet, now: Date) {
    return {
      accessTokenSealed: this.secrets.seal(tokens.accessToken, sealContext(vendor, 'access_token')),
      refreshTokenSealed: tokens.refreshToken
        ? this.secrets.seal(tokens.refreshToken, sealContext(vendor, 'refresh_token'))
        : null,
      accessExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
      refreshExpiresAt: tokens.refreshExpiresIn ? new Date(now.getTime() + tokens.refreshExpiresIn * 1000) : null,
    };
  }

  /**
   * A live access token for a call: refreshed first when it expires within REFRESH_MARGIN_MS (or
   * `force`, after the vendor answered 401). The row is locked while refreshing, so two processes
   * never spend the same refresh token (vendors rotate it: the second would be refused).
   */
  async accessToken(vendor: VendorId, options: { force?: boolean } = {}): Promise<{ token: string; row: Row }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(connection).where(eq(connection.vendor, vendor)).for('update');
      if (!row?.accessTokenSealed) throw new NotConnected(`${VENDOR_LABELS[vendor].name} is not connected.`);
      const now = this.now();
      const dying = !row.accessExpiresAt || row.accessExpiresAt.getTime() - now.getTime() < REFRESH_MARGIN_MS;
      if (!dying && !options.force) {
        return { token: this.secrets.open(row.accessTokenSealed, sealContext(vendor, 'access_token')), row };
      }
      if (!row.refreshTokenSealed || (row.refreshExpiresAt && row.refreshExpiresAt <= now)) {
        throw new NotConnected(`The ${VENDOR_LABELS[vendor].name} connection expired. Connect again.`);
      }
      let tokens: TokenSet;
      try {
        tokens = await refresh(
          this.app(row),
          this.secrets.open(row.refreshTokenSealed, sealContext(vendor, 'refresh_token')),
        );
      } catch (error) {
        throw new NotConnected(
          `Refreshing the ${VENDOR_LABELS[vendor].name} token failed: ${oauthErrorMessage(error)}`,
        );
      }
      const [updated] = await tx
        .update(connection)
        .set({ ...this.tokenColumns(vendor, tokens, now), lastRefreshAt: now, updatedAt: now })
        .where(eq(connection.vendor, vendor))
        .returning();
      return { token: tokens.accessToken, row: updated! };
    });
  }

  /** Revokes the refresh token at the vendor (when it offers revocation) and forgets every token. */
  async disconnect(vendor: VendorId): Promise<ConnectionView> {
    const row = await this.row(vendor);
    if (row.refreshTokenSealed && row.clientId && row.clientSecretSealed) {
      try {
        await revoke(this.app(row), this.secrets.open(row.refreshTokenSealed, sealContext(vendor, 'refresh_token')));
      } catch {
        // Forgetting the tokens is what disconnects; a vendor that cannot be reached keeps a token nobody holds.
      }
    }
    const [updated] = await this.db
      .update(connection)
      .set({
        accessTokenSealed: null,
        refreshTokenSealed: null,
        accessExpiresAt: null,
        refreshExpiresAt: null,
        accountId: null,
        accountName: null,
        apiBaseUri: null,
        connectedBy: null,
        connectedAt: null,
        lastError: null,
        lastErrorAt: null,
        updatedAt: this.now(),
      })
      .where(eq(connection.vendor, vendor))
      .returning();
    return this.present(updated!);
  }

  async recordSync(vendor: VendorId): Promise<void> {
    await this.db
      .update(connection)
      .set({ lastSyncAt: this.now(), updatedAt: sql`now()` })
      .where(eq(connection.vendor, vendor));
  }

  async recordError(vendor: VendorId, message: string): Promise<void> {
    await this.db
      .update(connection)
      .set({ lastError: message.slice(0, 1000), lastErrorAt: this.now(), updatedAt: sql`now()` })
      .where(eq(connection.vendor, vendor));
  }
}
