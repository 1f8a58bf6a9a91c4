import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  attributeError,
  notFound,
  resourceDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { secretContext, type Dispatcher } from './delivery/dispatcher.js';
import type { DeliverySettings } from './delivery/settings.js';
import { checkWebhookUrl, UrlRefused } from './delivery/url-guard.js';
import { can } from './permissions.js';
import { attempt, message, subscription } from './tables.js';

/**
 * `/api/events/subscriptions` (JSON:API, spec "Integrations"). Written by hand rather than declared:
 * creation is asynchronous (202, the dispatcher activates it), the secret is generated and sealed,
 * the URL is checked against the network (DNS) and the message log, Resend and test events are
 * actions, not collection rows.
 */
const tags = ['integrations'];
const security = [{ bearer: [] }];
const TYPE = 'subscription';

const eventsAttribute = z
  .array(
    z
      .string()
      .trim()
      .regex(
        /^(\*|[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*){0,2})$/,
        'Each event is * (all modules), a module or a topic prefix.',
      ),
  )
  .min(1, 'Choose at least one module or topic.')
  .max(50);
const attributes = {
  url: z.string().trim().min(1, 'This field is required.').max(2000),
  events: eventsAttribute,
  description: z.string().trim().max(500).optional(),
};
const createBody = resourceDocument(TYPE, attributes);
const patchBody = resourceDocument(
  TYPE,
  {
    url: attributes.url.optional(),
    events: eventsAttribute.optional(),
    description: attributes.description,
    status: z.enum(['active', 'disabled']).optional(),
  },
  { id: 'required' },
);
const idParams = z.object({ id: z.uuid({ error: 'Not a subscription id.' }) });

type Row = typeof subscription.$inferSelect;

const present = (row: Row) => ({
  type: TYPE,
  id: row.id,
  attributes: {
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabledReason,
    created_by: row.createdBy,
    date_created: row.createdAt.toISOString(),
    date_updated: row.updatedAt.toISOString(),
    secret_rotating: Boolean(row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date()),
  },
});

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function subscriptionRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  settings: DeliverySettings,
  dispatcher: Dispatcher,
): void {
  const { db, secrets } = context;
  const checkUrl = async (url: string) => {
    try {
      await checkWebhookUrl(url, settings.allowPrivate);
    } catch (error) {
      if (error instanceof UrlRefused) throw attributeError('url', error.message);
      throw error;
    }
  };
  const find = async (id: string) => {
    const [row] = await db.select().from(subscription).where(eq(subscription.id, id));
    if (!row) throw notFound(`subscription ${id} not found.`);
    return row;
  };

  router.get(
    '/events/subscriptions',
    {
      config: { jsonapi: true, access: can('subscription', 'read') },
      schema: { summary: 'Webhook subscriptions, newest first.', tags, security },
    },
    async () => {
      const rows = await db.select().from(subscription).orderBy(desc(subscription.createdAt));
      return { data: rows.map(present), meta: { count: rows.length } };
    },
  );

  router.get(
    '/events/subscriptions/:id',
    {
      config: { jsonapi: true, access: can('subscription', 'read') },
      schema: { summary: 'One subscription.', tags, security, params: idParams },
    },
    async (request) => ({ data: present(await find(request.params.id)) }),
  );

  router.post(
    '/events/subscriptions',
    {
      config: { jsonapi: true, access: can('subscription', 'create') },
      schema: {
        summary: 'Creates a subscription. Asynchronous: 202, active once the dispatcher picks it up.',
        description: 'The signing secret (whsec_…) is answered once in meta.secret and then at …/{id}/secret.',
        tags,
        security,
        body: createBody,
      },
    },
    async (request, reply) => {
      const input = request.body.data.attributes;
      if (!input?.url) throw attributeError('url', 'This field is required.');
      if (!input.events) throw attributeError('events', 'This field is required.');
      await checkUrl(input.url);
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(subscription)
          .values({
            url: input.url,
            events: [...new Set(input.events)],
            description: input.description ?? '',
            status: 'pending',
            secretSealed: 'pending',
            createdBy: request.principal.username,
          })
          .returning();
        const [sealed] = await tx
          .update(subscription)
          .set({ secretSealed: secrets.seal(secret, secretContext(created!.id)) })
          .where(eq(subscription.id, created!.id))
          .returning();
        return sealed!;
      });
      dispatcher.kick();
      reply.status(202);
      return { data: present(row), meta: { secret } };
    },
  );

  router.patch(
    '/events/subscriptions/:id',
    {
      config: { jsonapi: true, access: can('subscription', 'update') },
      schema: {
        summary: 'Changes a subscription: url, events, description, or status active/disabled.',
        tags,
        security,
        params: idParams,
        body: patchBody,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (request.body.data.id !== id) {
        reply.status(409);
        throw attributeError('id', 'The document id does not match the URL.', 409);
      }
      const before = await find(id);
      const input = request.body.data.attributes ?? {};
      if (input.url !== undefined && input.url !== before.url) await checkUrl(input.url);
      const [row] = await db
        .update(subscription)
        .set({
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.status !== undefined
            ? { status: input.status, disabledReason: input.status === 'disabled' ? 'Disabled by hand.' : null }
            : {}),
          updatedAt: new Date(),
        })
        .where(eq(subscription.id, id))
        .returning();
      return { data: present(row!) };
    },
  );

  router.delete(
    '/events/subscriptions/:id',
    {
      config: { jsonapi: true, access: can('subscription', 'delete') },
      schema: { summary: 'Deletes a subscription and its message log.', tags, security, params: idParams },
    },
    async (request, reply) => {
      await find(request.params.id);
      await db.delete(subscription).where(eq(subscription.id, request.params.id));
      reply.status(204);
      return reply.send();
    },
  );

  router.get(
    '/events/subscriptions/:id/secret',
    {
      config: { jsonapi: true, access: can('subscription', 'update') },
      schema: { summary: "The subscription's signing secret (whsec_…).", tags, security, params: idParams },
    },
    async (request) => {
      const row = await find(request.params.id);
      return {
        data: {
          type: 'subscription-secret',
          id: row.id,
          attributes: { secret: secrets.open(row.secretSealed, secretContext(row.id)) },
        },
      };
    },
  );

  router.post(
    '/events/subscriptions/:id/rotate-secret',
    {
      config: { jsonapi: true, access: can('subscription', 'update') },
      schema: {
        summary: 'A new secret; the previous one keeps signing too (two signatures) for 24 hours.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      const secret = newSecret();
      const [updated] = await db
        .update(subscription)
        .set({
          previousSecretSealed: row.secretSealed,
          previousSecretExpiresAt: new Date(Date.now() + 24 * 3600_000),
          secretSealed: secrets.seal(secret, secretContext(row.id)),
          updatedAt: new Date(),
        })
        .where(eq(subscription.id, row.id))
        .returning();
      return { data: present(updated!), meta: { secret } };
    },
  );

  router.get(
    '/events/subscriptions/:id/messages',
    {
      config: { jsonapi: true, access: can('subscription', 'read') },
      schema: {
        summary: "The subscription's messages, newest first, each with its attempts.",
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({
          'page[size]': z.coerce.number().int().min(1).max(200).default(50),
          'filter[status]': z.enum(['pending', 'retrying', 'succeeded', 'failed', 'skipped']).optional(),
        }),
      },
    },
    async (request) => {
      await find(request.params.id);
      const status = request.query['filter[status]'];
      const messages = await db
        .select()
        .from(message)
        .where(and(eq(message.subscriptionId, request.params.id), status ? eq(message.status, status) : undefined))
        .orderBy(desc(message.createdAt))
        .limit(request.query['page[size]']);
      const ids = messages.map((m) => m.id);
      const attempts = ids.length
        ? await db
            .select()
            .from(attempt)
            .where(sql`${attempt.messageId} in ${ids}`)
            .orderBy(attempt.attemptNumber)
        : [];
      return {
        data: messages.map((m) => ({
          type: 'message',
          id: m.id,
          attributes: {
            event_id: m.eventId,
            topic: m.topic,
            test: m.test,
            status: m.status,
            attempts: m.attempts,
            last_status_code: m.lastStatusCode,
            next_attempt_at:
              m.status === 'retrying' || m.status === 'pending' ? (m.nextAttemptAt?.toISOString() ?? null) : null,
            date_created: m.createdAt.toISOString(),
            payload: JSON.parse(m.body) as unknown,
            attempt_log: attempts
              .filter((a) => a.messageId === m.id)
              .map((a) => ({
                attempt: a.attemptNumber,
                attempted_at: a.attemptedAt.toISOString(),
                status_code: a.statusCode,
                latency_ms: a.latencyMs,
                response_excerpt: a.responseExcerpt,
                error: a.error,
                succeeded: a.succeeded,
                next_retry_at: a.nextRetryAt?.toISOString() ?? null,
                trigger: a.trigger,
              })),
          },
        })),
      };
    },
  );

  router.post(
    '/events/subscriptions/:id/test',
    {
      config: { jsonapi: true, access: can('subscription', 'update') },
      schema: { summary: 'Sends a test event (integrations.webhook.tested) now.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const row = await find(request.params.id);
      if (row.status === 'disabled')
        throw attributeError('status', 'The subscription is disabled; enable it first.', 409);
      const id = await dispatcher.queueTest(db, row.id, request.principal.username);
      dispatcher.kick();
      reply.status(202);
      return { data: { type: 'message', id, attributes: { status: 'pending', test: true } } };
    },
  );

  router.post(
    '/events/subscriptions/:id/messages/:messageId/resend',
    {
      config: { jsonapi: true, access: can('subscription', 'update') },
      schema: {
        summary: 'Sends a message again now, with a fresh retry schedule.',
        tags,
        security,
        params: z.object({ id: idParams.shape.id, messageId: z.uuid({ error: 'Not a message id.' }) }),
      },
    },
    async (request, reply) => {
      const [row] = await db
        .select({ id: message.id })
        .from(message)
        .where(and(eq(message.id, request.params.messageId), eq(message.subscriptionId, request.params.id)));
      if (!row) throw notFound(`message ${request.params.messageId} not found.`);
      await dispatcher.resend(db, row.id);
      dispatcher.kick();
      reply.status(202);
      return { data: { type: 'message', id: row.id, attributes: { status: 'pending' } } };
    },
  );
}
