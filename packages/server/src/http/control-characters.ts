import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type ProblemSource } from '@atrium/sdk/server';

/**
 * One gate for hostile characters, in front of every route (public sign-in routes included): a C0
 * control character (U+0000–U+001F) in a path parameter, a query parameter or a header value, or
 * one other than tab, CR and LF in a JSON body string or key, is answered 400 naming the field,
 * before validation and before any handler or database sees it. PostgreSQL cannot store NUL in
 * text at all (it answered 500 on 156 routes), and control characters in values that end up in
 * headers, file names or logs are never wanted. Text fields keep their line breaks and tabs.
 */
const IN_PATH_QUERY_HEADER = /[\u0000-\u001f]/;
const IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** The message of the answer; `where` names the field (e.g. `parameter 'status'`). */
export function controlCharacterDetail(where: string): string {
  return `${where} contains a control character, which is not allowed.`;
}

function reject(detail: string, source: ProblemSource): never {
  throw new ApiError(400, detail, { source, code: 'control_character' });
}

function checkParameters(values: unknown, kind: 'path' | 'query') {
  if (!values || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const strings = Array.isArray(value) ? value : [value];
    if (IN_PATH_QUERY_HEADER.test(name) || strings.some((s) => typeof s === 'string' && IN_PATH_QUERY_HEADER.test(s))) {
      const shown = name.replace(/[\u0000-\u001f]/g, '?');
      reject(controlCharacterDetail(`${kind === 'path' ? 'Path parameter' : 'Query parameter'} '${shown}'`), {
        parameter: shown,
      });
    }
  }
}

/** The JSON pointer of the first string (or key) holding a forbidden character, or null. */
export function findControlCharacter(value: unknown): string | null {
  // The path is kept as segments and joined only on a hit: every request body is walked, and
  // building a pointer string for each node made this gate a visible share of a small request.
  const path: string[] = [];
  const found = (): string => path.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const walk = (node: unknown, depth: number): boolean => {
    if (typeof node === 'string') return IN_BODY.test(node);
    if (node === null || typeof node !== 'object' || depth > 256) return false;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(String(i));
        if (walk(node[i], depth + 1)) return true;
        path.pop();
      }
      return false;
    }
    // Only plain parsed JSON; a multipart body or a stream is left to its route.
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (IN_BODY.test(key)) {
        path.push(key.replace(/[\u0000-\u001f]/g, '?'));
        return true;
      }
      path.push(key);
      if (walk((node as Record<string, unknown>)[key], depth + 1)) return true;
      path.pop();
    }
    return false;
  };
  return walk(value, 0) ? found() : null;
}

export function checkRequestForControlCharacters(request: FastifyRequest) {
  checkParameters(request.params, 'path');
  checkParameters(request.query, 'query');
  for (const [name, value] of Object.entries(request.headers)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && IN_PATH_QUERY_HEADER.test(v))) {
      reject(controlCharacterDetail(`Header '${name}'`), { header: name });
    }
  }
  const pointer = findControlCharacter(request.body);
  if (pointer !== null) {
    const field = pointer.slice(1).split('/').join('.');
    reject(controlCharacterDetail(pointer === '' ? 'The request body' : `Field '${field}'`), { pointer });
  }
}

export function registerControlCharacterGate(app: FastifyInstance) {
  // preValidation: the body is parsed, zod has not run yet, no handler has started.
  app.addHook('preValidation', async (request) => checkRequestForControlCharacters(request));
}
