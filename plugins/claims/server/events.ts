import { defineEvent, z } from '@atrium/sdk/server';

/**
 * The events the claims module emits (docs/claims.md, "Events"), each written to the outbox in
 * the transaction of the change it reports.
 */
export const claimCreated = defineEvent({
  topic: 'claims.claim.created',
  schemaId: 'claims.claim',
  version: '1.0.0',
  description: 'A claim (an FNOL draft) was created.',
  data: z.object({
    claim_id: z.string(),
    claim_number: z.string(),
    status: z.string(),
    policy_number: z.string().nullable(),
    created_by: z.string(),
  }),
});

export const CLAIMS_EVENTS = [claimCreated];
