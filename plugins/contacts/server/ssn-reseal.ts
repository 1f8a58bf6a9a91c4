import { and, eq, isNotNull } from 'drizzle-orm';
import { ssnVault, type Database, type Secrets } from '@atrium/sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import { ssnContext } from './contact-store.js';
import { contact } from './tables.js';

/**
 * After a key rotation (docs/security.md, "SSNs"): reseals and rehashes the store's SSNs sealed or
 * hashed under a retired key that is still configured, so the retired key can be dropped. A row
 * changed meanwhile is left to its writer; one that does not open is logged and left. Answers how
 * many rows it rewrote. The contacts module runs it in the background at start.
 */
export async function resealStoredSsns(db: Database, secrets: Secrets, log: FastifyBaseLogger): Promise<number> {
  const vault = ssnVault(secrets);
  const rows = await db
    .select({ id: contact.id, ssnSealed: contact.ssnSealed, ssnHash: contact.ssnHash })
    .from(contact)
    .where(isNotNull(contact.ssnSealed));
  let rewritten = 0;
  for (const row of rows) {
    if (row.ssnHash && !vault.needsRenewal({ sealed: row.ssnSealed!, hash: row.ssnHash })) continue;
    let ssn: string;
    try {
      ssn = vault.open(row.ssnSealed!, ssnContext(row.id));
    } catch (error) {
      log.error({ err: error, contactId: row.id }, 'a sealed SSN does not open; not resealed');
      continue;
    }
    const stored = vault.seal(ssn, ssnContext(row.id));
    const updated = await db
      .update(contact)
      .set({ ssnSealed: stored.sealed, ssnHash: stored.hash })
      .where(and(eq(contact.id, row.id), eq(contact.ssnSealed, row.ssnSealed!)))
      .returning({ id: contact.id });
    rewritten += updated.length;
  }
  if (rewritten > 0) log.info({ contacts: rewritten }, 'resealed stored SSNs under the current key');
  return rewritten;
}
