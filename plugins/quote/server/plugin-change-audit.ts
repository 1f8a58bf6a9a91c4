import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  ACTING_PLUGIN_HEADER,
  ACTING_PLUGINS,
  badRequest,
  defineAuditLog,
  notFound,
  z,
  type ActingPluginCapability,
  type AtriumRouter,
  type AuditRecord,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { can } from './permissions.js';
import { quoteScope } from './quote-access.js';
import { quoteNumberParams } from './schemas.js';
import { auditEntry, quote } from './tables.js';

/**
 * Auditing the risk changes a third-party UI plugin makes for a user (issue 22; docs/quote.md,
 * "Changes by plugins"). The host's plugin runtime makes those calls with the user's own token and
 * marks them with the `X-Atrium-Plugin` header; a `PUT /quote/risks/{id}/` for a plugin's
 * `update-risk` also carries the plugin's JSON Patch as `plugin_patch`. The ui-plugins module's
 * service (SDK `ACTING_PLUGINS`) says whether that plugin is enabled and may do it; the entry is
 * written in the change's own transaction, so it exists exactly when the change committed.
 */

/** One RFC 6902 operation, as a plugin sends it (the host has already applied and checked it). */
const patchOperation = z
  .object({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: z.string().max(500),
    from: z.string().max(500).optional(),
    value: z.unknown().optional(),
  })
  .strict();
export const pluginPatch = z.array(patchOperation).min(1).max(200);
export type PluginPatch = z.infer<typeof pluginPatch>;

interface QuoteAuditRecord extends AuditRecord {
  quoteId: number;
  riskType: string;
  pluginId: string;
  pluginName: string;
  patch?: PluginPatch;
}

const log = defineAuditLog<QuoteAuditRecord>(auditEntry);

export interface ActingPlugin {
  id: string;
  name: string;
}

/** The answers a save changed, before and after (fields not changed are left out). */
export function changedAnswers(before: Record<string, unknown>, after: Record<string, unknown>) {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    was[key] = before[key] ?? null;
    now[key] = after[key] ?? null;
  }
  return { before: was, after: now };
}

export function pluginChangeAudit(context: ServerPluginContext) {
  /**
   * The plugin the call was made for (`X-Atrium-Plugin`), or null for a user's own call. A named
   * plugin that does not exist, is disabled or lacks every one of `capabilities` is a 400, and so is
   * a plugin's call when the ui-plugins module is not installed.
   */
  const actingPlugin = async (
    tx: Queryable,
    request: FastifyRequest,
    capabilities: readonly ActingPluginCapability[],
  ): Promise<ActingPlugin | null> => {
    const header = request.headers[ACTING_PLUGIN_HEADER];
    if (header === undefined) return null;
    const id = Array.isArray(header) ? header[0] : header;
    const plugins = context.optionalService(ACTING_PLUGINS);
    if (!plugins) throw badRequest('Third-party plugins are not installed: X-Atrium-Plugin cannot be used.');
    const answer = await plugins.check(tx, String(id ?? '').trim(), capabilities);
    if (!answer.ok) throw badRequest(answer.message);
    return { id: answer.id, name: answer.name };
  };

  const record = (
    tx: Queryable,
    request: FastifyRequest,
    entry: {
      plugin: ActingPlugin;
      action: 'create-risk' | 'update-risk' | 'remove-risk';
      quoteId: number;
      riskId: number;
      riskType: string;
      patch?: PluginPatch;
      before?: unknown;
      after?: unknown;
    },
  ) =>
    log.write(tx, {
      username: request.principal?.username ?? 'system',
      action: entry.action,
      entityType: 'risk',
      entityId: entry.riskId,
      quoteId: entry.quoteId,
      riskType: entry.riskType,
      pluginId: entry.plugin.id,
      pluginName: entry.plugin.name,
      patch: entry.patch,
      before: entry.before,
      after: entry.after,
    });

  return { actingPlugin, record };
}

/** `GET /quote/{number}/audit/`: the quote's audit entries, newest first (quote read, record scope). */
export function pluginChangeRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  router.get(
    '/quote/:number/audit/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'The quote’s audit entries: the risk changes third-party plugins made, newest first.',
        tags: ['quote'],
        security: [{ bearer: [] }],
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const { number } = request.params;
      const [row] = await context.db
        .select({ id: quote.id })
        .from(quote)
        .where(and(eq(quote.number, number), await quoteScope(context, request.principal, 'read')))
        .limit(1);
      if (!row) throw notFound(`Quote ${number} not found.`);
      const rows = await context.db
        .select()
        .from(auditEntry)
        .where(eq(auditEntry.quoteId, row.id))
        .orderBy(desc(auditEntry.id))
        .limit(200);
      return {
        results: rows.map((e) => ({
          id: e.id,
          action: e.action,
          risk_id: Number(e.entityId),
          risk_type: e.riskType,
          username: e.username,
          plugin: e.pluginId ? { id: e.pluginId, name: e.pluginName } : null,
          patch: e.patch,
          before: e.before,
          after: e.after,
          created_at: e.createdAt.toISOString(),
        })),
      };
    },
  );
}
