import { eq, inArray } from 'drizzle-orm';
import {
  ApiError,
  defineGatewayMethod,
  z,
  type AtriumRouter,
  type GatewayMethod,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import {
  ALL_STATES,
  DELIVERABLES,
  DELIVERY_METHODS,
  massDeliverablesBody,
  stateCodeSchema,
  type DeliveryMethod,
  type EffectiveDeliverable,
} from '../shared/mass-deliverables.js';
import { settingsPermissions } from './permissions.js';
import { massDeliverable } from './tables.js';

/**
 * Mass deliverables per state (shared/mass-deliverables.ts, docs/settings.md):
 *
 * GET /api/settings/mass-deliverables/{state}/  every deliverable as the state sends it (its own
 *                                               row, or the default's), `*` the default itself
 * PUT /api/settings/mass-deliverables/{state}/  the state's own rows, replaced in one transaction
 * gateway settings.views retrieveMassDeliverablesTable {stateId}  the same table, classic shape
 */
const tags = ['settings'];
const security = [{ bearer: [] as string[] }];
const stateParams = z.strictObject({ state: stateCodeSchema });

/** Every deliverable for `state`: its own row where it has one, else the default's (else none is sent). */
export async function effectiveDeliverables(db: Queryable, state: string): Promise<EffectiveDeliverable[]> {
  const rows = await db
    .select()
    .from(massDeliverable)
    .where(inArray(massDeliverable.state, [...new Set([state, ALL_STATES])]));
  return DELIVERABLES.map((d) => {
    const own = rows.find((r) => r.state === state && r.deliverable === d.key);
    const fallback = rows.find((r) => r.state === ALL_STATES && r.deliverable === d.key);
    const row = own ?? fallback;
    const delivery = (row?.delivery ?? 'none') as DeliveryMethod;
    return {
      deliverable: d.key,
      label: d.label,
      delivery,
      delivery_label: DELIVERY_METHODS.find((m) => m.key === delivery)?.label ?? delivery,
      days_before: row?.daysBefore ?? null,
      source: own && state !== ALL_STATES ? 'state' : 'default',
    };
  });
}

export function massDeliverableRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  router.get(
    '/settings/mass-deliverables/:state/',
    {
      config: { access: settingsPermissions.can('mass-deliverable', 'read') },
      schema: {
        summary: "Every mass deliverable as the state sends it: the state's own setting or the default (`*`).",
        tags,
        security,
        params: stateParams,
      },
    },
    async (request) => ({
      state: request.params.state,
      deliverables: await effectiveDeliverables(context.db, request.params.state),
    }),
  );

  router.put(
    '/settings/mass-deliverables/:state/',
    {
      config: { access: settingsPermissions.can('mass-deliverable', 'update') },
      schema: {
        summary:
          "Replaces the state's own settings (deliverables left out follow the default again); for `*`, the default's, which must name every deliverable.",
        tags,
        security,
        params: stateParams,
        body: massDeliverablesBody,
      },
    },
    async (request) => {
      const { state } = request.params;
      const { rows } = request.body;
      if (state === ALL_STATES && rows.length !== DELIVERABLES.length) {
        throw new ApiError(400, 'The default names how every deliverable is sent.', {
          source: { pointer: '/rows' },
        });
      }
      const by = request.principal?.username ?? 'system';
      await context.db.transaction(async (tx) => {
        await tx.delete(massDeliverable).where(eq(massDeliverable.state, state));
        if (rows.length)
          await tx.insert(massDeliverable).values(
            rows.map((r) => ({
              state,
              deliverable: r.deliverable,
              delivery: r.delivery,
              daysBefore: r.days_before,
              updatedBy: by,
            })),
          );
      });
      request.log.info({ by, state }, 'mass deliverables changed');
      return { state, deliverables: await effectiveDeliverables(context.db, state) };
    },
  );
}

export const massDeliverablesGateway: GatewayMethod<any> = defineGatewayMethod({
  file: 'settings.views',
  method: 'retrieveMassDeliverablesTable',
  summary: 'How each mass deliverable is sent in a state (its own setting or the default).',
  access: settingsPermissions.can('mass-deliverable', 'read'),
  body: z.strictObject({ stateId: stateCodeSchema }),
  async handler(input, { context }) {
    const rows = await effectiveDeliverables(context.db, input.stateId);
    return {
      success: true,
      data: {
        stateId: input.stateId,
        deliverables: rows.map((r) => ({
          deliverable: r.deliverable,
          name: r.label,
          delivery: r.delivery,
          deliveryName: r.delivery_label,
          daysBefore: r.days_before,
          inherited: r.source === 'default' && input.stateId !== ALL_STATES,
        })),
      },
    };
  },
});
