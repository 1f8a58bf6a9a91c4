import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { ApiError, notFound, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import type { SupportTicket } from '../shared/support-schemas.js';
import { supportPermissions } from './permissions.js';
import { ticket, ticketAttachment } from './tables.js';

const tags = ['support'];
const security = [{ bearer: [] as string[] }];
const can = supportPermissions.can;
const MAIL_NOT_CONFIGURED = 'not sent: no mail server configured';

type TicketRow = typeof ticket.$inferSelect;

const ticketSchema = z.object({
  id: z.number(),
  subject: z.string(),
  description: z.string(),
  critical: z.boolean(),
  url: z.string().nullable(),
  included_contact_emails: z.array(z.string()),
  status: z.enum(['open', 'closed']),
  submitted_by: z.object({ username: z.string(), name: z.string() }),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  attachments: z.array(z.object({ id: z.number(), filename: z.string(), content_type: z.string(), size: z.number() })),
  mail: z.object({ status: z.string(), note: z.string().nullable() }).nullable(),
});

/**
 * The tickets behind the outstanding-tickets and Support Tools pages: a user reads and closes the
 * tickets they submitted (`support:ticket` read); `manage` (administrators) reads and closes
 * everyone's. Another user's ticket is a 404 like a missing one.
 */
export function ticketRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const callerOf = (request: FastifyRequest) => request.principal.username.trim().toLowerCase();
  const manages = async (request: FastifyRequest) =>
    (await context.services.evaluator?.evaluate(request.principal, can('ticket', 'manage')))?.allowed === true;

  async function present(rows: TicketRow[]): Promise<SupportTicket[]> {
    const ids = rows.map((r) => r.id);
    const files = ids.length
      ? await db.select().from(ticketAttachment).where(inArray(ticketAttachment.ticketId, ids))
      : [];
    return Promise.all(
      rows.map(async (row) => {
        const mail = row.mailId ? await context.mail.get(row.mailId, db) : null;
        return {
          id: row.id,
          subject: row.subject,
          description: row.description,
          critical: row.critical,
          url: row.url,
          included_contact_emails: row.includedEmails,
          status: row.status === 'closed' ? 'closed' : 'open',
          submitted_by: { username: row.createdBy, name: row.createdByName },
          created_at: row.createdAt.toISOString(),
          closed_at: row.closedAt?.toISOString() ?? null,
          attachments: files
            .filter((f) => f.ticketId === row.id)
            .sort((a, b) => a.id - b.id)
            .map((f) => ({ id: f.id, filename: f.filename, content_type: f.contentType, size: f.size })),
          mail: mail
            ? {
                status: mail.status,
                note:
                  mail.lastError === MAIL_NOT_CONFIGURED
                    ? 'Not sent: no mail server is configured.'
                    : mail.status === 'failed'
                      ? (mail.lastError ?? 'Not sent.')
                      : null,
              }
            : null,
        } satisfies SupportTicket;
      }),
    );
  }

  /** A ticket the caller may see: their own, or any with `manage`. */
  async function visibleTicket(request: FastifyRequest, id: number): Promise<TicketRow> {
    const [row] = await db.select().from(ticket).where(eq(ticket.id, id)).limit(1);
    if (!row || (row.createdBy !== callerOf(request) && !(await manages(request)))) {
      throw notFound(`Ticket ${id} not found.`);
    }
    return row;
  }

  const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

  router.get(
    '/tickets/',
    {
      config: { access: can('ticket', 'read') },
      schema: {
        summary:
          "Support tickets, newest first: the caller's (scope mine, the default) or everyone's (scope all, needs manage); status open (default), closed or all.",
        tags,
        security,
        querystring: z.strictObject({
          scope: z.enum(['mine', 'all']).default('mine'),
          status: z.enum(['open', 'closed', 'all']).default('open'),
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          page_size: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: { 200: z.object({ count: z.number(), results: z.array(ticketSchema) }) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.scope === 'all' && !(await manages(request))) throw new ApiError(403);
      const where = and(
        q.scope === 'mine' ? eq(ticket.createdBy, callerOf(request)) : undefined,
        q.status === 'all' ? undefined : eq(ticket.status, q.status),
      );
      const [total] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(ticket)
        .where(where);
      const rows = await db
        .select()
        .from(ticket)
        .where(where)
        .orderBy(desc(ticket.createdAt), desc(ticket.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { count: total?.n ?? 0, results: await present(rows) };
    },
  );

  router.get(
    '/tickets/:id/',
    {
      config: { access: can('ticket', 'read') },
      schema: { summary: 'One support ticket.', tags, security, params: idParams, response: { 200: ticketSchema } },
    },
    async (request) => (await present([await visibleTicket(request, request.params.id)]))[0]!,
  );

  router.post(
    '/tickets/:id/close/',
    {
      config: { access: can('ticket', 'read') },
      schema: {
        summary: 'Closes a ticket (the problem is solved): it leaves the outstanding tickets.',
        tags,
        security,
        params: idParams,
        response: { 200: ticketSchema },
      },
    },
    async (request) => {
      const row = await visibleTicket(request, request.params.id);
      if (row.status === 'closed') return (await present([row]))[0]!;
      const [closed] = await db
        .update(ticket)
        .set({ status: 'closed', closedAt: new Date(), closedBy: callerOf(request) })
        .where(eq(ticket.id, row.id))
        .returning();
      return (await present([closed!]))[0]!;
    },
  );

  router.get(
    '/tickets/:id/attachments/:attachmentId/content/',
    {
      config: { access: can('ticket', 'read') },
      schema: {
        summary: "One of a ticket's images.",
        tags,
        security,
        params: idParams.extend({ attachmentId: z.coerce.number().int().min(1).max(2_147_483_647) }),
      },
    },
    async (request, reply) => {
      const row = await visibleTicket(request, request.params.id);
      const [file] = await db
        .select()
        .from(ticketAttachment)
        .where(and(eq(ticketAttachment.ticketId, row.id), eq(ticketAttachment.id, request.params.attachmentId)))
        .limit(1);
      const object = file ? await context.storage.get(file.storageKey) : null;
      if (!file || !object) throw notFound(`Attachment ${request.params.attachmentId} not found.`);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
        .header('x-content-type-options', 'nosniff')
        .send(object.body);
    },
  );
}
