import { z, type AtriumRouter, type Permission, type ServerPluginContext } from '@atrium/sdk/server';

/**
 * `GET /api/v2/utils/get_navigation_links` (spec, classic and utility): the modules the caller's
 * effective role may open, in the spec's order, as the classic pages draw their menu. Agents and
 * agencies get the agent links. A module shows when the role holds `ViewModule` on `ui:<module>`
 * (the same question the shell asks).
 */
const STAFF_LINKS = [
  { name: 'all-products', label: 'All Products', url: '/' },
  { name: 'contacts', label: 'Contacts', url: '/contacts' },
  { name: 'lines', label: 'Lines', url: '/lines' },
  { name: 'policies', label: 'Policies', url: '/policies' },
  { name: 'claims', label: 'Claims', url: '/claims' },
  { name: 'reports', label: 'Reports', url: '/reports' },
  { name: 'documents', label: 'Documents', url: '/documents' },
  { name: 'rules', label: 'Rules', url: '/rules' },
  { name: 'access', label: 'Access', url: '/access' },
  { name: 'notes', label: 'Notes', url: '/notes' },
  { name: 'settings', label: 'Settings', url: '/settings' },
  { name: 'users', label: 'Users', url: '/users' },
  { name: 'my-account', label: 'My Account', url: '/my-account' },
];

const AGENT_LINKS = [
  { name: 'quote', label: 'New Quote', url: '/quote/create' },
  { name: 'policies', label: 'Policies and Quotes', url: '/policies' },
  { name: 'claims', label: 'Claims', url: '/claims' },
  { name: 'policies', label: 'Payments', url: '/payments' },
  { name: 'reports', label: 'Reports', url: '/reports' },
  { name: 'integrations', label: 'BriteApps', url: '/briteapps' },
];

/** Spec: agent or agency is an effective role whose name contains Agent or Agency. */
export const isAgentRole = (role: string | null) => role !== null && /agen(t|cy)/i.test(role);

export function navigationLinksRoute(router: AtriumRouter, context: ServerPluginContext): void {
  router.get(
    '/v2/utils/get_navigation_links',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "The modules the caller's effective role may open (agent links for agents and agencies).",
        tags: ['classic'],
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            success: z.literal(true),
            data: z.array(z.object({ name: z.string(), label: z.string(), url: z.string() })),
          }),
        },
      },
    },
    async (request) => {
      const links = isAgentRole(request.principal.effectiveRole) ? AGENT_LINKS : STAFF_LINKS;
      const evaluator = context.services.evaluator;
      const allowed = await Promise.all(
        links.map(async (link) => {
          const question: Permission = { resource: `ui:${link.name}`, action: 'ViewModule' };
          return evaluator ? (await evaluator.evaluate(request.principal, question)).allowed : false;
        }),
      );
      return { success: true as const, data: links.filter((_, i) => allowed[i]) };
    },
  );
}
