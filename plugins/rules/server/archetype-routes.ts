import { ApiError, notFound, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { ARCHETYPES, archetypeView } from './archetypes.js';
import { can } from './permissions.js';
import { list, projectView, unique } from './routes.js';
import { treeOf } from './store.js';
import { component, componentVersion, effectiveDate, project, rulesPackage } from './tables.js';

const tags = ['rules'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();

/** Project archetypes: `GET rules/project-archetype/`, `POST rules/project-archetype/{id}/create/`. */
export function registerArchetypeRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const user = (request: { principal?: { username: string } | null }) => request.principal?.username ?? 'system';

  router.get(
    '/rules/project-archetype/',
    {
      config: { access: can('project', 'read') },
      schema: { summary: 'Lists the project archetypes a new rules project can start from.', tags, security },
    },
    async () => list(ARCHETYPES.map(archetypeView)),
  );

  router.post(
    '/rules/project-archetype/:id/create/',
    {
      config: { access: can('project', 'create') },
      schema: {
        summary:
          "Creates a rules project from an archetype: a package with the archetype's components on a first draft effective date.",
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          name: z
            .string()
            .trim()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A name is letters, digits and underscores, starting with a letter.')
            .max(100),
          label: z.string().trim().min(1).max(200),
          product: z.string().trim().min(1).max(100),
          description: z.string().max(2000).default(''),
          effective_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.'),
        }),
      },
    },
    async (request, reply) => {
      const archetype = ARCHETYPES.find((a) => a.id === request.params.id);
      if (!archetype) throw notFound(`Project archetype ${request.params.id} not found.`);
      const body = request.body;
      if (!(await context.service(LINES_ONTOLOGY).products(db)).some((p) => p.name === body.product)) {
        throw new ApiError(400, `'${body.product}' is not a lines product.`, {
          issues: [{ detail: `'${body.product}' is not a lines product.`, source: { pointer: '/product' } }],
        });
      }
      const created = await unique(`A rules project named '${body.name}'`, () =>
        db.transaction(async (tx) => {
          const [p] = await tx
            .insert(project)
            .values({
              name: body.name,
              label: body.label,
              product: body.product,
              description: body.description || archetype.description,
            })
            .returning();
          const [pkg] = await tx
            .insert(rulesPackage)
            .values({ projectId: p!.id, name: body.name })
            .returning({ id: rulesPackage.id });
          const [date] = await tx
            .insert(effectiveDate)
            .values({ projectId: p!.id, name: body.effective_date, effectiveDate: body.effective_date })
            .returning({ id: effectiveDate.id });
          for (const c of archetype.components) {
            const [row] = await tx
              .insert(component)
              .values({ packageId: pkg!.id, name: c.name, label: c.label, folder: c.folder, componentType: c.type })
              .returning({ id: component.id });
            await tx.insert(componentVersion).values({
              componentId: row!.id,
              effectiveDateId: date!.id,
              body: c.body,
              tree: treeOf(c.type, c.body),
              updatedBy: user(request),
            });
          }
          return p!;
        }),
      );
      reply.status(201);
      return projectView(db, created);
    },
  );
}
