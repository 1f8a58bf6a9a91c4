import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import {
  containsPattern,
  MAIL_LIMITS,
  mailAddressSchema,
  defineGatewayMethod,
  z,
  type GatewayMethod,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { claimAccessFilter, claimNotFound, loadClaimFor } from '../core/claim-access.js';
import { claim } from '../core/tables.js';
import { claimAttachments, queueClaimMail } from '../email/email-routes.js';

/**
 * The classic gateway's claims calls (spec: `claims.views retrieveClaimsList`, `core.uploads
 * retrieveAttachments` and `email_files`), for the previous portal's pages and integrations. They
 * answer from the same record scope as /api/claims: a claim the caller may not read is missing
 * (404), lists hold only readable claims. The spec gives no bodies; these follow its
 * `retrievePolicies {filter, searchString, currentPage, pageSize}` and are in docs/settings.md.
 */
const claimNumber = z
  .string({ error: 'Name the claim by its number.' })
  .trim()
  .min(1, 'Name the claim by its number.')
  .max(40);

/** A claim by number, if the caller may read it (404 as if missing otherwise). */
async function readableClaimByNumber(
  call: Parameters<GatewayMethod['handler']>[1],
  number: string,
): Promise<{ id: number; number: string }> {
  const [row] = await call.context.db.select({ id: claim.id }).from(claim).where(eq(claim.number, number)).limit(1);
  if (!row) throw claimNotFound(number);
  return loadClaimFor(call.context, call.request, call.context.db, row.id, 'read');
}

export const claimsGatewayMethods: GatewayMethod<any>[] = [
  defineGatewayMethod({
    file: 'claims.views',
    method: 'retrieveClaimsList',
    summary: 'A page of claims by claim number, policy number or loss description (newest first).',
    access: claimsPermission('claim', 'read'),
    body: z.strictObject({
      filter: z
        .enum(['number', 'policy_number', 'description'], { error: 'Filter by number, policy_number or description.' })
        .optional(),
      searchString: z.string().max(200).optional(),
      currentPage: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(5),
    }),
    async handler(input, { request, context }) {
      const text = input.searchString?.trim();
      const pattern = text ? containsPattern(text) : '';
      const match = !text
        ? undefined
        : input.filter === 'number'
          ? ilike(claim.number, pattern)
          : input.filter === 'policy_number'
            ? ilike(claim.policyNumber, pattern)
            : input.filter === 'description'
              ? ilike(claim.lossDescription, pattern)
              : or(
                  ilike(claim.number, pattern),
                  ilike(claim.policyNumber, pattern),
                  ilike(claim.lossDescription, pattern),
                );
      const where = and(match, await claimAccessFilter(context, request, 'read'));
      const [total] = (await context.db
        .select({ n: sql<number>`count(*)::int` })
        .from(claim)
        .where(where)) as { n: number }[];
      const rows = await context.db
        .select()
        .from(claim)
        .where(where)
        .orderBy(desc(claim.createdAt), desc(claim.id))
        .limit(input.pageSize)
        .offset((input.currentPage - 1) * input.pageSize);
      return {
        success: true,
        data: {
          total: total?.n ?? 0,
          claims: rows.map((c) => ({
            id: c.id,
            claimNumber: c.number,
            status: c.status,
            dateOfLoss: c.dateOfLoss,
            policyNumber: c.policyNumber,
            lossDescription: c.lossDescription,
            primaryAdjuster: c.primaryAdjuster,
          })),
        },
      };
    },
  }),
  defineGatewayMethod({
    file: 'core.uploads',
    method: 'retrieveAttachments',
    summary: "A claim's attachments, by folder, with the address of each file.",
    access: claimsPermission('attachment', 'read'),
    body: z.strictObject({ referenceId: claimNumber }),
    async handler(input, call) {
      const found = await readableClaimByNumber(call, input.referenceId);
      const rows = await claimAttachments(call.context.db, found.number);
      return {
        success: true,
        data: {
          referenceId: found.number,
          attachments: rows.map((r) => ({
            ...r,
            url: `/api/claims/integrations/attachments/${r.id}/content/`,
          })),
        },
      };
    },
  }),
  defineGatewayMethod({
    file: 'core.uploads',
    method: 'email_files',
    summary: "Mails some of a claim's attachments (the claim's outbound e-mail, audited).",
    access: claimsPermission('email', 'create'),
    body: z.strictObject({
      referenceId: claimNumber,
      attachmentIds: z
        .array(z.coerce.string().regex(/^[1-9][0-9]{0,9}$/, 'Not an attachment id.'))
        .min(1, 'Choose at least one file to send.')
        .max(50),
      to: z.array(mailAddressSchema).max(MAIL_LIMITS.recipients).optional(),
      cc: z.array(mailAddressSchema).max(MAIL_LIMITS.recipients).optional(),
      subject: z.string().max(998).optional(),
      message: z.string().max(100_000).optional(),
    }),
    async handler(input, call) {
      const found = await readableClaimByNumber(call, input.referenceId);
      const queued = await queueClaimMail(call.context, call.request, found, {
        to: input.to,
        cc: input.cc,
        subject: input.subject,
        body: input.message,
        attachmentIds: input.attachmentIds,
      });
      return { success: true, data: { emailId: queued.id, status: queued.status } };
    },
  }),
];
