import { sql, type SQL } from 'drizzle-orm';
import { notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { normalizeUserName } from '../access-snapshot.js';
import { ACCESS_PERMISSIONS } from '../permissions.js';
import { role, roleGroupNameAssignment, roleUserNameAssignment } from '../tables.js';
import { containsPattern, offsetOf, pageOf, pageQuery, parseOrdering, toPage } from './list-page.js';

/**
 * `users` and `groups`: read-only views of the users and groups that hold at least one role here,
 * each with the roles assigned to it directly (a user's roles through groups are not expanded:
 * group membership is identity's). The people themselves are managed by identity / user
 * management; these lists are what the role-assignment screens pick from and show.
 */
const tags = ['access'];
const security = [{ bearer: [] }];

const userOut = z.object({ username: z.string(), roles: z.array(z.string()) });
const groupOut = z.object({ name: z.string(), roles: z.array(z.string()) });

interface Directory {
  path: 'users' | 'groups';
  keyField: 'username' | 'name';
  table: typeof roleUserNameAssignment | typeof roleGroupNameAssignment;
  key: SQL;
  pageSize: number;
}

export function directoryRoutes(router: AtriumRouter, db: Database) {
  const users: Directory = {
    path: 'users',
    keyField: 'username',
    table: roleUserNameAssignment,
    key: sql`${roleUserNameAssignment.userName}`,
    pageSize: 15,
  };
  const groups: Directory = {
    path: 'groups',
    keyField: 'name',
    table: roleGroupNameAssignment,
    key: sql`${roleGroupNameAssignment.groupName}`,
    pageSize: 10000,
  };
  for (const directory of [users, groups]) register(router, db, directory);
}

function register(router: AtriumRouter, db: Database, directory: Directory) {
  const { path, keyField, table, key } = directory;
  const out = path === 'users' ? userOut : groupOut;
  const listQuery = z.strictObject({
    ...pageQuery(directory.pageSize),
    [keyField]: z.string().max(320).optional(),
    role: z.string().max(100).optional(),
  }) as unknown as z.ZodType<
    { page: number; page_size: number; ordering?: string; role?: string } & Record<string, string | number | undefined>
  >;
  const ORDERING = [keyField] as const;
  const roleIdColumn = sql`${table}.role_id`;

  /** One row per user or group: its key and its role names in name order. */
  const grouped = (where: SQL | undefined, having: SQL | undefined) => sql`
    select ${key} as key, array_agg(${role.name} order by ${role.name}) as roles
    from ${table} join ${role} on ${role.id} = ${roleIdColumn}
    ${where ? sql`where ${where}` : sql``}
    group by ${key}
    ${having ? sql`having ${having}` : sql``}`;

  const rowsOf = (result: unknown) =>
    ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as { key: string; roles: string[]; n?: number }[];

  router.get(
    `/${path}`,
    {
      config: { access: ACCESS_PERMISSIONS.readDirectory },
      schema: {
        summary: `Lists the ${path} that hold roles, with their roles; filters: ${keyField} (contains, any case), role (holds it).`,
        tags,
        security,
        querystring: listQuery,
        response: { 200: pageOf(out) },
      },
    },
    async (request) => {
      const query = request.query;
      const [order] = parseOrdering(query.ordering, ORDERING, keyField);
      const filter = query[keyField];
      const where = filter ? sql`${key} ilike ${containsPattern(String(filter))}` : undefined;
      const having = query.role ? sql`bool_or(lower(${role.name}) = lower(${query.role}))` : undefined;
      const base = grouped(where, having);
      const [total] = rowsOf(await db.execute(sql`select count(*)::int as n from (${base}) as listed`));
      const rows = rowsOf(
        await db.execute(
          sql`${base} order by lower(${key}) ${order!.descending ? sql`desc` : sql`asc`}, ${key} limit ${query.page_size} offset ${offsetOf(query)}`,
        ),
      );
      const results = rows.map((row) => ({ [keyField]: row.key, roles: row.roles }));
      return toPage(request.url, query, Number(total?.n ?? 0), results as z.infer<typeof out>[]);
    },
  );

  router.get(
    `/${path}/:${keyField}`,
    {
      config: { access: ACCESS_PERMISSIONS.readDirectory },
      schema: {
        summary: `One ${path.replace(/s$/, '')} that holds roles, with its roles; 404 when it holds none.`,
        tags,
        security,
        params: z.strictObject({ [keyField]: z.string().min(1).max(320) }) as unknown as z.ZodType<
          Record<string, string>
        >,
        response: { 200: out },
      },
    },
    async (request) => {
      const wanted = request.params[keyField]!;
      const match =
        path === 'users' ? sql`${key} = ${normalizeUserName(wanted)}` : sql`lower(${key}) = lower(${wanted})`;
      const [row] = rowsOf(await db.execute(grouped(match, undefined)));
      if (!row) throw notFound(`${path === 'users' ? 'User' : 'Group'} '${wanted}' holds no role.`);
      return { [keyField]: row.key, roles: row.roles } as z.infer<typeof out>;
    },
  );
}
