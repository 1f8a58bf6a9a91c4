import { asc, eq } from 'drizzle-orm';
import {
  execute,
  GraphQLBoolean,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  parse,
  validate,
  specifiedRules,
  type ExecutionResult,
  type GraphQLType,
  type SelectionSetNode,
} from 'graphql';
import type { Queryable } from '@atrium/sdk/server';
import { componentsAt, currentEffectiveDate, findEffectiveDate, type LoadedComponent } from './store.js';
import { effectiveDate, job, packageDependency, packageTag, project, rulesPackage } from './tables.js';

/**
 * The rules GraphQL schema (`/api/graphql/rules`, docs/rules.md "GraphQL"): read-only queries over
 * projects, effective dates, packages, components and jobs, resolved from the same tables and
 * helpers as the REST routes. Each field asks `authorize` for the permission its REST twin needs.
 */
export const FORBIDDEN_MESSAGE = 'This operation is not allowed. (Error code: 403)';
export const MAX_QUERY_LENGTH = 20_000;
export const MAX_QUERY_DEPTH = 8;

export interface RulesGraphqlContext {
  db: Queryable;
  /** Resolves when the caller holds `rules:<thing>` `read`; rejects with the 403 GraphQL error otherwise. */
  authorize(thing: 'project' | 'component'): Promise<void>;
}

const nn = <T extends GraphQLType>(type: T) => new GraphQLNonNull(type);
const list = <T extends GraphQLType>(type: T) => nn(new GraphQLList(nn(type)));
type Ctx = RulesGraphqlContext;

const EffectiveDate = new GraphQLObjectType<typeof effectiveDate.$inferSelect, Ctx>({
  name: 'EffectiveDate',
  fields: {
    id: { type: nn(GraphQLInt) },
    name: { type: nn(GraphQLString) },
    effectiveDate: { type: nn(GraphQLString) },
    description: { type: nn(GraphQLString) },
    status: { type: nn(GraphQLString), description: 'draft, published or archived' },
  },
});

const Tag = new GraphQLObjectType({
  name: 'ComponentTag',
  fields: {
    category: { type: nn(GraphQLString) },
    value: { type: nn(GraphQLString) },
    priority: { type: nn(GraphQLInt) },
  },
});

const Component = new GraphQLObjectType<LoadedComponent, Ctx>({
  name: 'Component',
  fields: {
    id: { type: nn(GraphQLInt) },
    name: { type: nn(GraphQLString) },
    label: { type: nn(GraphQLString) },
    folder: { type: nn(GraphQLString) },
    componentType: { type: nn(GraphQLString) },
    packageId: { type: nn(GraphQLInt) },
    packageName: { type: nn(GraphQLString) },
    fullName: { type: nn(GraphQLString) },
    tags: { type: list(Tag) },
    state: { type: nn(GraphQLString) },
    effectiveDateId: { type: nn(GraphQLInt) },
    uncommitted: { type: nn(GraphQLBoolean), resolve: (c) => c.committedHash !== c.hash },
    body: { type: nn(GraphQLString) },
  },
});

const PackageRef = new GraphQLObjectType({
  name: 'PackageRef',
  fields: { id: { type: nn(GraphQLInt) }, name: { type: nn(GraphQLString) } },
});
const Dependency = new GraphQLObjectType({
  name: 'PackageDependency',
  fields: { package: { type: nn(PackageRef) }, tag: { type: PackageRef, description: 'The pinned package tag' } },
});

const Package = new GraphQLObjectType<typeof rulesPackage.$inferSelect, Ctx>({
  name: 'Package',
  fields: {
    id: { type: nn(GraphQLInt) },
    name: { type: nn(GraphQLString) },
    projectId: { type: nn(GraphQLInt) },
    dependencies: {
      type: list(Dependency),
      resolve: async (p, _args, ctx) => {
        const rows = await ctx.db
          .select({ to: rulesPackage, tag: packageTag })
          .from(packageDependency)
          .innerJoin(rulesPackage, eq(rulesPackage.id, packageDependency.dependsOnId))
          .leftJoin(packageTag, eq(packageTag.id, packageDependency.tagId))
          .where(eq(packageDependency.packageId, p.id))
          .orderBy(asc(rulesPackage.name));
        return rows.map((r) => ({ package: r.to, tag: r.tag }));
      },
    },
  },
});

const componentArgs = {
  effectiveDateId: { type: GraphQLInt, description: 'Default: the current effective date (the latest draft)' },
  packageId: { type: GraphQLInt },
  tag: { type: GraphQLString, description: 'category.value' },
};
type ComponentArgs = { effectiveDateId?: number | null; packageId?: number | null; tag?: string | null };

async function componentsOf(ctx: Ctx, projectId: number, args: ComponentArgs) {
  await ctx.authorize('component');
  const date =
    args.effectiveDateId == null
      ? await currentEffectiveDate(ctx.db, projectId)
      : await findEffectiveDate(ctx.db, projectId, args.effectiveDateId).catch(() => {
          throw new GraphQLError(`Effective date ${args.effectiveDateId} of rules project ${projectId} not found.`);
        });
  const [category, value] = args.tag ? [args.tag.split('.')[0], args.tag.split('.').slice(1).join('.')] : [];
  return (await componentsAt(ctx.db, projectId, date.id)).filter(
    (c) =>
      (args.packageId == null || c.packageId === args.packageId) &&
      (!args.tag || c.tags.some((t) => t.category === category && t.value === value)),
  );
}

const Project = new GraphQLObjectType<typeof project.$inferSelect, Ctx>({
  name: 'Project',
  fields: {
    id: { type: nn(GraphQLInt) },
    name: { type: nn(GraphQLString) },
    label: { type: nn(GraphQLString) },
    product: { type: nn(GraphQLString) },
    description: { type: nn(GraphQLString) },
    effectiveDates: {
      type: list(EffectiveDate),
      args: { archived: { type: GraphQLBoolean, description: 'Also the archived ones' } },
      resolve: async (p, args: { archived?: boolean | null }, ctx) =>
        (
          await ctx.db
            .select()
            .from(effectiveDate)
            .where(eq(effectiveDate.projectId, p.id))
            .orderBy(asc(effectiveDate.effectiveDate))
        ).filter((d) => args.archived || d.status !== 'archived'),
    },
    packages: {
      type: list(Package),
      resolve: (p, _args, ctx) =>
        ctx.db.select().from(rulesPackage).where(eq(rulesPackage.projectId, p.id)).orderBy(asc(rulesPackage.name)),
    },
    components: {
      type: list(Component),
      args: componentArgs,
      resolve: (p, args: ComponentArgs, ctx) => componentsOf(ctx, p.id, args),
    },
  },
});

const Job = new GraphQLObjectType<typeof job.$inferSelect, Ctx>({
  name: 'Job',
  fields: {
    id: { type: nn(GraphQLString) },
    kind: { type: nn(GraphQLString) },
    projectId: { type: GraphQLInt },
    status: { type: nn(GraphQLString), description: 'NEW, IN_PROGRESS, COMPLETED or CANCELLED' },
    resultStatus: { type: GraphQLString, description: 'SUCCESS or ERROR' },
    progress: { type: nn(GraphQLString) },
  },
});

export const rulesGraphqlSchema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, Ctx>({
    name: 'Query',
    fields: {
      projects: {
        type: list(Project),
        resolve: async (_root, _args, ctx) => {
          await ctx.authorize('project');
          return ctx.db.select().from(project).orderBy(asc(project.name));
        },
      },
      project: {
        type: Project,
        args: { id: { type: GraphQLInt }, name: { type: GraphQLString } },
        resolve: async (_root, args: { id?: number | null; name?: string | null }, ctx) => {
          await ctx.authorize('project');
          if (args.id == null && args.name == null) throw new GraphQLError('Give the project id or name.');
          const [row] = await ctx.db
            .select()
            .from(project)
            .where(args.id != null ? eq(project.id, args.id) : eq(project.name, args.name!));
          return row ?? null;
        },
      },
      components: {
        type: list(Component),
        args: { projectId: { type: nn(GraphQLInt) }, ...componentArgs },
        resolve: async (_root, args: ComponentArgs & { projectId: number }, ctx) => {
          await ctx.authorize('project');
          const [p] = await ctx.db.select().from(project).where(eq(project.id, args.projectId));
          if (!p) throw new GraphQLError(`Rules project ${args.projectId} not found.`);
          return componentsOf(ctx, p.id, args);
        },
      },
      job: {
        type: Job,
        args: { id: { type: nn(GraphQLString) } },
        resolve: async (_root, args: { id: string }, ctx) => {
          await ctx.authorize('project');
          if (!/^[0-9a-f-]{36}$/i.test(args.id)) throw new GraphQLError('A job id is a UUID.');
          const [row] = await ctx.db.select().from(job).where(eq(job.id, args.id));
          return row ?? null;
        },
      },
    },
  }),
});

function depthOf(set: SelectionSetNode, fragments: Map<string, SelectionSetNode>, seen: Set<string>): number {
  let deepest = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD)
      deepest = Math.max(deepest, s.selectionSet ? 1 + depthOf(s.selectionSet, fragments, seen) : 1);
    else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(s.selectionSet, fragments, seen));
    else if (!seen.has(s.name.value) && fragments.has(s.name.value)) {
      deepest = Math.max(deepest, depthOf(fragments.get(s.name.value)!, fragments, new Set([...seen, s.name.value])));
    }
  }
  return deepest;
}

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** Parses, validates (with a depth limit) and runs one request. No data: a request error (HTTP 400). */
export async function runRulesGraphql(request: GraphqlRequest, ctx: Ctx): Promise<ExecutionResult> {
  if (request.query.length > MAX_QUERY_LENGTH)
    return { errors: [new GraphQLError(`The query is longer than ${MAX_QUERY_LENGTH} characters.`)] };
  let document;
  try {
    document = parse(request.query);
  } catch (error) {
    return { errors: [error as GraphQLError] };
  }
  const errors = validate(rulesGraphqlSchema, document, specifiedRules);
  if (errors.length) return { errors };
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  for (const d of document.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION && depthOf(d.selectionSet, fragments, new Set()) > MAX_QUERY_DEPTH)
      return { errors: [new GraphQLError(`The query is nested deeper than ${MAX_QUERY_DEPTH} levels.`)] };
  }
  return execute({
    schema: rulesGraphqlSchema,
    document,
    contextValue: ctx,
    variableValues: request.variables ?? null,
    operationName: request.operationName ?? null,
  });
}
