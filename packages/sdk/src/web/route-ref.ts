/**
 * Typed route references. Modules never pass raw path strings to each other: they import a ref and
 * call `link(params)`, so renaming a path or adding a parameter breaks the build, not a user's click.
 * Paths use the router's syntax: `/claims/:claimId/exposures`, optional segments `:inviteId?`.
 */

type Trim<S extends string> = S extends `${infer Head}/${string}` ? Head : S;

type ParamNames<Path extends string> = Path extends `${string}:${infer Rest}`
  ? Trim<Rest> | ParamNames<Rest extends `${string}/${infer Tail}` ? `/${Tail}` : ''>
  : never;

type Required_<N> = N extends `${string}?` ? never : N;
type Optional_<N> = N extends `${infer Name}?` ? Name : never;

/** `{ claimId: string; inviteId?: string }` for `/claims/:claimId/:inviteId?`. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, string | number | undefined>
  : {
      [K in Required_<ParamNames<Path>>]: string | number;
    } & {
      [K in Optional_<ParamNames<Path>>]?: string | number;
    };

export type RouteParams = Record<string, string | number | undefined>;
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RouteRef<Params extends object = RouteParams> {
  readonly kind: 'route-ref';
  /** The spec's route name, e.g. `claims:exposures`. Unique across all plugins. */
  readonly name: string;
  /** Absolute router path, e.g. `/claims/:claimId/exposures`. */
  readonly path: string;
  /** The parameters named in `path`, in order, without the `?` marker. */
  readonly params: readonly { name: string; optional: boolean }[];
  /** Builds the URL for these params (checked: missing or unknown params throw) and an optional query. */
  link(params: Params, query?: QueryParams): string;
}

/** Any route ref, whatever its params: what navigation entries and registries hold. */
// Method syntax in RouteRef keeps `link` bivariant, so every RouteRef<P> is assignable here.
export type AnyRouteRef = RouteRef<RouteParams>;

export class RouteParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteParamsError';
  }
}

const PARAM_SEGMENT = /^:([A-Za-z_][A-Za-z0-9_]*)(\?)?$/;

export function parseRoutePath(path: string): { name: string; optional: boolean }[] {
  if (!path.startsWith('/')) throw new RouteParamsError(`Route path '${path}' must start with '/'.`);
  const params: { name: string; optional: boolean }[] = [];
  for (const segment of path.split('/')) {
    if (!segment.startsWith(':')) continue;
    const match = PARAM_SEGMENT.exec(segment);
    if (!match) throw new RouteParamsError(`Route path '${path}' has a malformed parameter '${segment}'.`);
    if (params.some((p) => p.name === match[1])) {
      throw new RouteParamsError(`Route path '${path}' repeats the parameter '${match[1]}'.`);
    }
    params.push({ name: match[1]!, optional: match[2] === '?' });
  }
  return params;
}

export function buildQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function createRouteRef<const Path extends string>(config: {
  name: string;
  path: Path;
}): RouteRef<PathParams<Path>> {
  const { name, path } = config;
  if (!name) throw new RouteParamsError('A route ref needs a name.');
  const params = parseRoutePath(path);
  const known = new Set(params.map((p) => p.name));
  return Object.freeze({
    kind: 'route-ref' as const,
    name,
    path,
    params,
    link(values: PathParams<Path>, query?: QueryParams): string {
      const given = (values ?? {}) as RouteParams;
      for (const key of Object.keys(given)) {
        if (!known.has(key)) throw new RouteParamsError(`Route '${name}' has no parameter '${key}'.`);
      }
      const segments: string[] = [];
      for (const segment of path.split('/')) {
        if (!segment.startsWith(':')) {
          segments.push(segment);
          continue;
        }
        const optional = segment.endsWith('?');
        const key = segment.slice(1, optional ? -1 : undefined);
        const value = given[key];
        if (value === undefined || value === '') {
          if (optional) continue;
          throw new RouteParamsError(`Route '${name}' needs the parameter '${key}'.`);
        }
        segments.push(encodeURIComponent(String(value)));
      }
      const pathname = segments.join('/') || '/';
      return `${pathname}${buildQueryString(query)}`;
    },
  });
}

export function isRouteRef(value: unknown): value is AnyRouteRef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'route-ref';
}

/** `/claims/:id/` and `/claims/:claimId` are the same route shape. */
export function normalizePath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return trimmed.replace(/:[A-Za-z_][A-Za-z0-9_]*(\?)?/g, (_m, optional: string | undefined) =>
    optional ? ':?' : ':',
  );
}
