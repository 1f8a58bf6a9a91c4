import { and, desc, eq } from 'drizzle-orm';
import { provideService, type ServerPluginContext } from '@atrium/sdk/server';
import { CONTACT_CLAIMS, type ContactClaims } from '@atrium/plugin-contacts/directory';
import type { FastifyRequest } from 'fastify';
import { claimAccessFilter } from '../core/claim-access.js';
import { claim, party } from '../core/tables.js';

/**
 * The claims a contact of the contact store is a party to, for the contact page (the extension point
 * contacts defines; contacts never reads claims' tables): a party is the contact's when its
 * `contact_id` is the contact's store number (`CON-1001` is 1001). Only claims the caller may read
 * are answered (claims:claim read, record conditions in SQL).
 */
export const contactClaimsService = provideService(CONTACT_CLAIMS, (context: ServerPluginContext): ContactClaims => ({
  async claimsOfContact(tx, contact, caller) {
    const scope = await claimAccessFilter(context, caller as FastifyRequest, 'read');
    const rows = await tx
      .select({
        claimId: claim.id,
        number: claim.number,
        status: claim.status,
        role: party.role,
        dateOfLoss: claim.dateOfLoss,
      })
      .from(party)
      .innerJoin(claim, eq(claim.id, party.claimId))
      .where(and(eq(party.contactId, contact.number), scope))
      .orderBy(desc(claim.dateOfLoss), desc(claim.id))
      .limit(200);
    return rows.map((r) => ({
      ...r,
      dateOfLoss: r.dateOfLoss ? r.dateOfLoss.toISOString() : null,
      // claimsLossDetailRoute (web/routes.ts): a claim opens on its details.
      path: `/claims/${encodeURIComponent(r.number)}/details`,
    }));
  },
}));
