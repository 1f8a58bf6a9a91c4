import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database, Secrets } from '@atrium/sdk/server';
import { oidcProvider } from './tables.js';

/**
 * OpenID Connect client secrets at rest: sealed by the platform's secrets service (docs/security.md,
 * "Secrets at rest"), each bound to its provider row, so that a database dump or a copied row
 * yields no secret that works at the provider. The routes seal on write, the federation opens on
 * use; `sealStored` is the data migration for rows written before (and for key rotation).
 */
const sealContext = (providerId: string) => `identity.oidc_provider.client_secret:${providerId}`;

export class OidcClientSecrets {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
  ) {}

  seal(providerId: string, secret: string | null): string | null {
    return secret === null ? null : this.secrets.seal(secret, sealContext(providerId));
  }

  /** The plaintext secret of a provider row (a row not sealed yet is read as it is). */
  open(row: { id: string; clientSecret: string | null }): string | null {
    if (!row.clientSecret) return null;
    return this.secrets.isSealed(row.clientSecret)
      ? this.secrets.open(row.clientSecret, sealContext(row.id))
      : row.clientSecret;
  }

  /** Seals secrets still in plaintext and reseals those of a retired key; answers the rows rewritten. */
  async sealStored(): Promise<number> {
    const rows = await this.db
      .select({ id: oidcProvider.id, clientSecret: oidcProvider.clientSecret })
      .from(oidcProvider)
      .where(isNotNull(oidcProvider.clientSecret));
    let rewritten = 0;
    for (const row of rows) {
      const stored = row.clientSecret!;
      if (this.secrets.isSealed(stored) && !this.secrets.needsResealing(stored)) continue;
      const updated = await this.db
        .update(oidcProvider)
        .set({ clientSecret: this.seal(row.id, this.open(row)) })
        // Only if the row still holds what was read: an administrator's change meanwhile wins.
        .where(and(eq(oidcProvider.id, row.id), eq(oidcProvider.clientSecret, stored)))
        .returning({ id: oidcProvider.id });
      rewritten += updated.length;
    }
    return rewritten;
  }
}
