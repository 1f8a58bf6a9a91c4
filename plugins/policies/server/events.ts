import { defineEvent, z } from '@atrium/sdk/server';

/**
 * The events the policies module emits, each written to the outbox in the transaction of the change
 * it reports. Vendor connections (the QuickBooks invoice) and webhooks react to them.
 */
export const policyIssued = defineEvent({
  topic: 'policies.policy.issued',
  schemaId: 'policies.policy.issued',
  version: '1.0.0',
  description: 'A policy was issued (bound from a quote): its first term and revision exist.',
  data: z.object({
    policy_id: z.string(),
    policy_number: z.string(),
    product_slug: z.string(),
    quote_number: z.string(),
    named_insured_name: z.string(),
    named_insured_contact_id: z.string().nullable(),
    effective_date: z.string(),
    expiration_date: z.string(),
    /** Term premium, a decimal string with two places. */
    premium: z.string(),
    issued_by: z.string(),
  }),
});

export const POLICIES_EVENTS = [policyIssued];
