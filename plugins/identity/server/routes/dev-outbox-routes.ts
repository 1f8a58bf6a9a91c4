import { and, desc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { messageOutbox } from '../tables.js';

const outboxMessage = z.object({
  id: z.number().int(),
  channel: z.enum(['sms', 'email']),
  destination: z.string(),
  username: z.string(),
  purpose: z.string(),
  subject: z.string(),
  body: z.string(),
  code: z.string(),
  created_at: z.string(),
});

/**
 * Development only: the SMS and e-mail codes the embedded sender "delivered", newest first, so that
 * a developer (or an end-to-end test) can sign in as sms@atrium.test. Never mounted in production.
 */
export function devOutboxRoutes(router: AtriumRouter, services: IdentityServices) {
  router.get(
    '/dev/outbox',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Development only: messages the embedded code sender wrote (SMS and e-mail codes).',
        tags: ['identity', 'development'],
        querystring: z.strictObject({
          destination: z.string().max(320).optional(),
          username: z.string().max(320).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: z.object({ messages: z.array(outboxMessage) }) },
      },
    },
    async (request) => {
      const { destination, username, limit } = request.query;
      const conditions: SQL[] = [];
      if (destination) conditions.push(eq(messageOutbox.destination, destination));
      if (username) conditions.push(eq(messageOutbox.username, username.trim().toLowerCase()));
      const rows = await services.db
        .select()
        .from(messageOutbox)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(desc(messageOutbox.id))
        .limit(limit);
      return {
        messages: rows.map((row) => ({
          id: row.id,
          channel: row.channel as 'sms' | 'email',
          destination: row.destination,
          username: row.username,
          purpose: row.purpose,
          subject: row.subject,
          body: row.body,
          code: row.code,
          created_at: row.createdAt.toISOString(),
        })),
      };
    },
  );
}
