import { registerResources, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import {
  LOOKUP_PATHS,
  claimEventShape,
  coverageShape,
  damageShape,
  faultShape,
  injuryShape,
  locationShape,
  lookupShape,
  onSiteServiceShape,
  partyShape,
  riskShape,
  riskTypeShape,
} from '../../shared/collections.js';
import { claimsCollection, relateByType } from './collection-routes.js';
import { registerManualItemRoutes } from './manual-item-routes.js';
import {
  claimEvent,
  coverage,
  damage,
  fault,
  injury,
  location,
  lookup,
  onSiteService,
  party,
  risk,
  riskType,
} from './tables.js';

export { LOOKUP_PATHS };

/**
 * The claim kinds that are plain records on a claim (or reference data) — each a JSON:API collection
 * under /api/claims/<path>/ with create, update, delete and find, declared once (shared half in
 * shared/collections.ts). Lookups share one table; their paths are listed in LOOKUP_PATHS.
 */
export const partyCollection = claimsCollection({
  shape: partyShape,
  table: party,
  thing: 'party',
  summary: 'claim parties',
  hidden: ['version'],
  uniqueAttribute: 'display_number',
});

const CLAIM_KINDS = [
  claimsCollection({
    shape: locationShape,
    table: location,
    thing: 'claim',
    summary: 'locations (addresses of losses and parties)',
  }),
  partyCollection,
  claimsCollection({ shape: riskShape, table: risk, thing: 'claim', summary: 'risks on claims' }),
  claimsCollection({ shape: riskTypeShape, table: riskType, thing: 'product', summary: 'risk types of products' }),
  claimsCollection({ shape: damageShape, table: damage, thing: 'claim', summary: 'damages to risks' }),
  claimsCollection({
    shape: faultShape,
    table: fault,
    thing: 'claim',
    summary: 'fault (percentage liable) per party',
  }),
  claimsCollection({ shape: injuryShape, table: injury, thing: 'injury', summary: 'injuries of parties' }),
  claimsCollection({
    shape: coverageShape,
    table: coverage,
    thing: 'claim',
    summary: "coverages of the claim's policy",
  }),
  claimsCollection({
    shape: claimEventShape,
    table: claimEvent,
    thing: 'claim',
    summary: 'events in the life of claims (created_by: the caller, set by the server)',
    createdByColumn: 'createdBy',
  }),
  claimsCollection({
    shape: onSiteServiceShape,
    table: onSiteService,
    thing: 'claim',
    summary: 'on-site services (inspections, repairs) on claims',
  }),
];

const LOOKUPS = Object.entries(LOOKUP_PATHS)
  // Manual items and limits keep their rows in the lookup table but validate their own fields.
  .filter(([path]) => path !== 'manual-items' && path !== 'manual-limits')
  .map(([path, type]) =>
    claimsCollection({
      shape: lookupShape(path),
      table: lookup,
      thing: 'lookup',
      summary: `${path.replace(/-/g, ' ')} (lookup)`,
      fixed: { kind: type },
      hidden: ['createdAt'],
      uniqueAttribute: 'name',
    }),
  );

relateByType([...CLAIM_KINDS, ...LOOKUPS]);

export function registerClaimKinds(router: AtriumRouter, context: ServerPluginContext): void {
  registerResources(router, context, CLAIM_KINDS);
  registerManualItemRoutes(router, context.db);
  registerResources(router, context, LOOKUPS);
}
