import { ApiError, badRequest, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { findPackage, masterNamespace, type NamespaceEntry } from './package-routes.js';
import { can } from './permissions.js';
import { treeOf } from './store.js';

/** How many names one query may ask for (a package's namespace is rarely larger). */
export const BRLOO_MAX_NAMES = 200;

const nameList = z
  .string({ message: 'serialized is a comma-separated list of component names.' })
  .transform((text) =>
    text
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .max(300)
          .regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, 'A component name is letters, digits, underscores and dots.'),
      )
      .min(1, 'serialized is a comma-separated list of component names.')
      .max(BRLOO_MAX_NAMES, `At most ${BRLOO_MAX_NAMES} names in one query.`),
  );

/**
 * brloo ("BRL objects"): the spec gives only `GET rules/brloo/packages/{id}/query/` and "serialized
 * comma-separated". Designed like its neighbour `GET rules/package/{id}/namespaces/master/`: it
 * resolves names the way a component of the package names them (its master namespace: its own
 * components on the current effective date, its dependencies' at their pinned tags) and answers each
 * as an object — its text and its syntax tree — so a tool resolves a rule's references in one call
 * instead of one per name. docs/rules.md, "brloo query".
 */
export function registerBrlooRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  router.get(
    '/rules/brloo/packages/:id/query/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary:
          "Resolves component names (serialized: comma-separated, full or short) in a package's master namespace and answers each with its text and tree.",
        tags: ['rules'],
        security: [{ bearer: [] }],
        params: z.object({ id: z.coerce.number().int().positive() }),
        querystring: z.strictObject({ serialized: nameList }),
      },
    },
    async (request) => {
      const p = await findPackage(db, request.params.id);
      const { effectiveDateId, components } = await masterNamespace(db, p);
      const names = [...new Set(request.query.serialized)];
      const found = names.map((query) => ({ query, entry: resolve(components, query) }));
      const missing = found.filter((f) => f.entry === 'none').map((f) => f.query);
      const ambiguous = found.filter((f) => f.entry === 'ambiguous').map((f) => f.query);
      if (ambiguous.length > 0)
        throw badRequest(
          `More than one component of the namespace of package '${p.name}' is named ${ambiguous.map((n) => `'${n}'`).join(', ')}; use the full name.`,
        );
      if (missing.length > 0)
        throw new ApiError(
          404,
          `Not in the master namespace of package '${p.name}': ${missing.map((n) => `'${n}'`).join(', ')}.`,
          { code: 'not_in_namespace' },
        );
      return {
        package: { id: p.id, name: p.name, project: p.projectId },
        namespace: 'master',
        effective_date: effectiveDateId,
        results: found.map(({ query, entry }) => {
          const e = entry as NamespaceEntry;
          return {
            query,
            full_name: e.full_name,
            name: e.name,
            folder: e.folder,
            component_type: e.component_type,
            state: e.state,
            package: e.package,
            tag: e.tag,
            body: e.body,
            tree: treeOf(e.component_type, e.body),
          };
        }),
      };
    },
  );
}

/** A full name matches itself; a short name the one component so named (the package's own first). */
function resolve(components: NamespaceEntry[], query: string): NamespaceEntry | 'none' | 'ambiguous' {
  const byFullName = components.find((c) => c.full_name === query);
  if (byFullName) return byFullName;
  const named = components.filter((c) => c.name === query);
  const own = named.filter((c) => c.tag === null);
  const candidates = own.length > 0 ? own : named;
  if (candidates.length === 0) return 'none';
  return candidates.length === 1 ? candidates[0]! : 'ambiguous';
}
