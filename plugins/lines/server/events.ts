import { defineEvent, z } from '@atrium/sdk/server';

/**
 * The events the lines module emits (docs/integrations.md), each written to the outbox in the
 * transaction of the change it reports: a product version published (or reinstated) and retired.
 */
const versionData = z.object({
  product_id: z.string(),
  product_label: z.string(),
  version_id: z.string(),
  version_number: z.number().int(),
  version_label: z.string(),
  effective_date: z.string(),
  status: z.enum(['published', 'retired']),
});

export const productVersionPublished = defineEvent({
  topic: 'lines.product-version.published',
  schemaId: 'lines.product-version',
  version: '1.0.0',
  description: 'A product version was published (or a retired one reinstated); it rates from its effective date.',
  data: versionData,
});

export const productVersionRetired = defineEvent({
  topic: 'lines.product-version.retired',
  schemaId: 'lines.product-version',
  version: '1.0.0',
  description: 'A published product version was retired.',
  data: versionData,
});

export const LINES_EVENTS = [productVersionPublished, productVersionRetired];
