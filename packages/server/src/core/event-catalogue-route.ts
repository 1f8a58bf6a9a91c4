import { eventCatalogue, z, type AtriumRouter } from '@atrium/sdk/server';

const entry = z.object({
  topic: z.string(),
  schema_id: z.string(),
  version: z.string(),
  description: z.string(),
  plugin: z.string(),
  json_schema: z.record(z.string(), z.unknown()),
});

/** `GET /api/event-catalogue`: every topic installed plugins may emit, with its data's JSON Schema. */
export function eventCatalogueRoute(router: AtriumRouter): void {
  router.get(
    '/event-catalogue',
    {
      config: { access: { resource: 'core:event', action: 'read' } },
      schema: {
        summary: 'The topic catalogue: each event topic, its schema id and version, and the JSON Schema of its data.',
        tags: ['core'],
        security: [{ bearer: [] }],
        response: { 200: z.object({ results: z.array(entry) }) },
      },
    },
    async () => ({ results: eventCatalogue() }),
  );
}
