import { signIn, type TestServer } from '@atrium/sdk/testing';
import { KNOWN_5XX } from './fuzz-known-5xx.js';

/**
 * The schema-driven fuzz (issue 14): every operation of the server's OpenAPI document
 * (`/api/docs/json`) is called as the administrator with hostile values in its path parameters,
 * query parameters and JSON body (NUL and control characters, 1 MB strings, deep nesting,
 * out-of-range numbers and dates, wrong types, bad ids); any 5xx is a failure, reported with the
 * operation, where the value went, the value and the seed that replays it (`FUZZ_SEED`).
 */

export interface Operation {
  method: string;
  /** OpenAPI path, `{id}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Media type of the JSON body, if the operation takes one. */
  bodyType?: string;
  bodySchema?: JsonSchema;
  /** The route's access declaration as the document carries it (`x-atrium-access`). */
  access: RouteAccess;
  /** Allowed values of the `include` query parameter when the document lists them. */
  includeValues?: string[];
}

export type RouteAccess = 'public' | 'authenticated' | { resource: string; action: string };

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  $ref?: string;
}

export interface Hostile {
  label: string;
  value: unknown;
}

const MEGABYTE = 'x'.repeat(1024 * 1024);
/**
 * Deep nesting is sent as JSON text spliced into the body (the test's own JSON.stringify would
 * overflow its stack): the value is a placeholder string that `serialize` replaces.
 */
const RAW = new Map<string, string>();
const raw = (name: string, json: string): string => {
  const placeholder = `\u2063${name}\u2063`;
  RAW.set(JSON.stringify(placeholder), json);
  return placeholder;
};
const deepArray = (depth: number) => raw(`array${depth}`, `${'['.repeat(depth)}${']'.repeat(depth)}`);
const deepObject = (depth: number) => raw(`object${depth}`, `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`);

function serialize(value: unknown): string {
  let text = JSON.stringify(value);
  for (const [placeholder, json] of RAW) if (text.includes(placeholder)) text = text.split(placeholder).join(json);
  return text;
}

/** The hostile values, each sent in place of one path parameter, query parameter or body field. */
export const HOSTILE: Hostile[] = [
  { label: 'NUL', value: '\u0000' },
  { label: 'NUL inside text', value: 'a\u0000b' },
  { label: 'control characters', value: '\u0001\u0008\u001b[31m\u001f' },
  { label: 'CR LF header injection', value: 'x\r\nSet-Cookie: a=b' },
  { label: '1 MB string', value: MEGABYTE },
  { label: 'empty string', value: '' },
  { label: 'lone surrogate', value: '\ud800' },
  { label: 'percent-encoded NUL', value: '%00' },
  { label: 'SQL-looking text', value: "' OR 1=1 --" },
  { label: 'path traversal', value: '../../../etc/passwd' },
  { label: 'negative id', value: -1 },
  { label: 'zero', value: 0 },
  { label: 'beyond int4', value: 2147483648 },
  { label: 'beyond safe integer', value: 2 ** 53 + 2 },
  { label: 'huge float', value: 1e308 },
  { label: 'fraction', value: 1.5 },
  { label: 'numeric string out of range', value: '99999999999999999999' },
  { label: 'bad id string', value: 'abc' },
  { label: 'year 99999', value: '99999-01-01' },
  { label: 'impossible date', value: '2024-02-30' },
  { label: 'year 0', value: '0000-00-00' },
  { label: 'negative year', value: '-001000-01-01T00:00:00Z' },
  { label: 'bad time zone offset', value: '2024-01-01T00:00:00+25:00' },
  { label: 'boolean', value: true },
  { label: 'null', value: null },
  { label: 'array', value: ['a', 1] },
  { label: 'object', value: { a: 1 } },
  { label: 'deeply nested array', value: deepArray(2000) },
  { label: 'deeply nested object', value: deepObject(2000) },
];

/** Values for the whole body at once. */
export const HOSTILE_BODIES: Hostile[] = [
  { label: 'body: array', value: [] },
  { label: 'body: string', value: 'text' },
  { label: 'body: number', value: 7 },
  { label: 'body: deep nesting', value: deepArray(5000) },
  { label: 'body: NUL key', value: { ['a\u0000']: 1 } },
];

/** mulberry32: a small seeded generator, so that a run replays from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED);
  return Number.isInteger(fromEnv) && process.env.FUZZ_SEED ? fromEnv : Math.floor(Math.random() * 2 ** 31);
}

type Document = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};
interface OpenApiOperation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  'x-atrium-access'?: RouteAccess;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Operations that end the administrator's session or would take the fuzz's own server down. They
 * are still fuzzed, but a 401 after them is answered by signing in again (see `Fuzzer.send`).
 */
export async function loadOperations(server: TestServer): Promise<Operation[]> {
  const document = (await (await server.fetch('/api/docs/json')).json()) as Document;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const bodyType = Object.keys(content).find((type) => type.includes('json'));
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyType,
        bodySchema: bodyType ? resolve(content[bodyType]!.schema, document) : undefined,
        access: operation['x-atrium-access'] ?? 'public',
        includeValues: parameters
          .find((p) => p.in === 'query' && p.name === 'include')
          ?.schema?.enum?.filter((v): v is string => typeof v === 'string'),
      });
    }
  }
  return operations;
}

function resolve(schema: JsonSchema | undefined, document: Document, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 20) return schema;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    return resolve(document.components?.schemas?.[name], document, depth + 1);
  }
  return schema;
}

/** A plausible value for a schema: what a well-meaning client would send, one field at a time. */
export function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'fuzz';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return plausible(options.find((o) => o.type !== 'null') ?? options[0], depth + 1);
  if (schema.allOf?.length) return plausible(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = plausible(schema.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'date') return '2024-01-02';
      if (schema.format === 'date-time') return '2024-01-02T03:04:05.000Z';
      if (schema.format === 'email') return 'fuzz@example.test';
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
    default:
      return 'fuzz';
  }
}

/** Where a hostile value goes: a path or query parameter, a body field (JSON pointer) or the whole body. */
export type Target =
  | { kind: 'path'; name: string }
  | { kind: 'query'; name: string }
  | { kind: 'body'; pointer: string[] }
  | { kind: 'whole-body' };

/** Every place of an operation a value can go, body fields down to two levels. */
export function targetsOf(operation: Operation): Target[] {
  const targets: Target[] = [
    ...operation.pathParams.map((name) => ({ kind: 'path' as const, name })),
    ...operation.queryParams.map((name) => ({ kind: 'query' as const, name })),
  ];
  if (operation.bodyType) {
    targets.push({ kind: 'whole-body' });
    const walk = (schema: JsonSchema | undefined, pointer: string[], depth: number) => {
      const objectSchema = schema?.properties ? schema : (schema?.anyOf ?? schema?.oneOf)?.find((s) => s.properties);
      if (!objectSchema?.properties || depth > 2) return;
      for (const [name, inner] of Object.entries(objectSchema.properties)) {
        targets.push({ kind: 'body', pointer: [...pointer, name] });
        walk(inner, [...pointer, name], depth + 1);
      }
    };
    walk(operation.bodySchema, [], 0);
    if (!targets.some((t) => t.kind === 'body')) targets.push({ kind: 'body', pointer: ['fuzz'] });
  }
  return targets;
}

export interface Case {
  operation: Operation;
  target: Target;
  hostile: Hostile;
}

export function describeCase({ operation, target, hostile }: Case): string {
  const where =
    target.kind === 'path'
      ? `path {${target.name}}`
      : target.kind === 'query'
        ? `query ${target.name}`
        : target.kind === 'body'
          ? `body /${target.pointer.join('/')}`
          : 'body';
  return `${operation.method} ${operation.path} ${where} = ${hostile.label}`;
}

const asText = (value: unknown) => (typeof value === 'string' && !value.includes('\u2063') ? value : serialize(value));

/** Percent-encodes a path segment; a lone surrogate goes as the invalid UTF-8 bytes it would be. */
function encodePathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  }
}

function buildRequest({ operation, target, hostile }: Case): { url: string; init: RequestInit } {
  let path = operation.path;
  for (const name of operation.pathParams) {
    const value = target.kind === 'path' && target.name === name ? asText(hostile.value) : '1';
    path = path.replace(`{${name}}`, encodePathSegment(value));
  }
  const query = new URLSearchParams();
  if (target.kind === 'query') query.set(target.name, asText(hostile.value));
  const url = query.size ? `${path}?${query}` : path;
  const headers: Record<string, string> = { accept: operation.bodyType ?? 'application/json, */*' };
  let body: string | undefined;
  if (operation.bodyType) {
    headers['content-type'] = operation.bodyType;
    let document = plausible(operation.bodySchema);
    if (target.kind === 'whole-body') document = hostile.value;
    else if (target.kind === 'body') document = setAt(document, target.pointer, hostile.value);
    body = serialize(document);
  }
  return { url, init: { method: operation.method, headers, body } };
}

function setAt(document: unknown, pointer: string[], value: unknown): unknown {
  const root = (document && typeof document === 'object' ? document : {}) as Record<string, unknown>;
  let current = root;
  for (const [index, key] of pointer.entries()) {
    if (index === pointer.length - 1) current[key] = value;
    else {
      const next = current[key];
      current[key] = next && typeof next === 'object' && !Array.isArray(next) ? next : {};
      current = current[key] as Record<string, unknown>;
    }
  }
  return root;
}

export interface Finding {
  case: string;
  status: number;
  detail: string;
}

/** Sends cases as the administrator, a few at a time, and collects every 5xx not on the allow-list. */
export class Fuzzer {
  private token: Promise<string>;
  readonly findings: Finding[] = [];
  readonly known: string[] = [];
  /** How many answers each status got: a fuzz that only meets 401s or 415s tests nothing. */
  readonly statuses = new Map<number, number>();
  sent = 0;

  constructor(private readonly server: TestServer) {
    this.token = signIn(server, 'admin@atrium.test');
  }

  private async freshToken(): Promise<string> {
    // The fuzzed sign-in cases spend this source's sign-in budget (hole 7): a 429 is waited out as
    // its Retry-After says, the way a client would, at most twice.
    for (let attempt = 0; ; attempt++) {
      const response = await this.server.fetch('/api/identity/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@atrium.test', password: 'Atrium!demo1' }),
      });
      const body = (await response.json()) as { authentication_result?: { access_token: string } };
      if (body.authentication_result) return body.authentication_result.access_token;
      if (response.status !== 429 || attempt >= 2) throw new Error(`Signing in again answered ${response.status}.`);
      const seconds = Number(response.headers.get('retry-after') ?? '60');
      await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? seconds : 60) * 1000 + 250));
    }
  }

  async send(fuzzCase: Case): Promise<void> {
    const { url, init } = buildRequest(fuzzCase);
    const once = async () => {
      const token = await this.token;
      const response = await this.server.fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      });
      return { response, text: await response.text(), token };
    };
    let first = await once();
    if (first.response.status === 415 && init.body !== undefined) {
      // The document lists JSON for a route that speaks JSON:API: send what the route takes.
      const jsonapi = 'application/vnd.api+json';
      init.headers = { ...(init.headers as Record<string, string>), 'content-type': jsonapi, accept: jsonapi };
      first = await once();
    }
    let { response, text } = first;
    if (response.status === 401) {
      // An operation before this one ended the session (sign-out everywhere): sign in again.
      if ((await this.token) === first.token) this.token = this.freshToken();
      ({ response, text } = await once());
    }
    this.sent++;
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    if (response.status < 500) return;
    const label = describeCase(fuzzCase);
    const knownKey = `${fuzzCase.operation.method} ${fuzzCase.operation.path}`;
    if (
      KNOWN_5XX.some(
        (known) => known.operation === knownKey && (!known.value || known.value === fuzzCase.hostile.label),
      )
    ) {
      this.known.push(label);
      return;
    }
    this.findings.push({ case: label, status: response.status, detail: text.slice(0, 200) });
  }

  async run(cases: Case[], concurrency = 3): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < cases.length) await this.send(cases[next++]!);
      }),
    );
  }
}

export function statusSummary(fuzzer: Fuzzer): string {
  return [...fuzzer.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

export function report(findings: Finding[], seed: number): string {
  return [
    `${findings.length} answer(s) 5xx (replay with FUZZ_SEED=${seed}):`,
    ...findings.map((f) => `  ${f.status} ${f.case}: ${f.detail}`),
  ].join('\n');
}
