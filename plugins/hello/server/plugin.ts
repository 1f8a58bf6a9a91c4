import { defineServerPlugin, z } from '@atrium/sdk/server';

/**
 * The smallest server plugin: one validated, public route under /api/hello. It is the example in
 * docs/plugins.md and the "whole stack" route the P1 framework-overhead benchmark measures.
 */
const greetingQuery = z.strictObject({ name: z.string().trim().min(1).max(80).default('world') });
const greetingResponse = z.object({ message: z.string() });

export default defineServerPlugin({
  id: 'hello',
  title: 'Hello (example plugin)',
  permissions: [{ resource: 'hello:greeting', action: 'read', description: 'Be greeted by name once signed in.' }],
  routes(router) {
    router.get(
      '/greeting',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Greets someone by name.',
          tags: ['hello'],
          querystring: greetingQuery,
          response: { 200: greetingResponse },
        },
      },
      async (request) => ({ message: `Hello, ${request.query.name}!` }),
    );
    // The same greeting behind sign-in and a permission check: the whole stack in one route.
    router.get(
      '/greeting/signed-in',
      {
        config: { access: { resource: 'hello:greeting', action: 'read' } },
        schema: {
          summary: 'Greets the signed-in caller, if their effective role may read greetings.',
          tags: ['hello'],
          security: [{ bearer: [] }],
          querystring: greetingQuery,
          response: { 200: greetingResponse },
        },
      },
      async (request) => ({ message: `Hello, ${request.query.name}! You are ${request.principal!.username}.` }),
    );
  },
});
