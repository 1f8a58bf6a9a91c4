import type { Database } from '@atrium/sdk/server';
import { startAccessServer, type AccessTestServer, type Caller } from '../../../access/test/access-test-server.js';
import linesPlugin from '../../server/plugin.js';

/**
 * A real server (fresh, seeded database) with access, a test identity and the lines module.
 * `admin` is an Administrator, `author` a Product and Rules Author, `underwriter` may only read.
 * Calls are `Bearer test:<user name>` (see plugins/access/test/access-test-server.ts).
 */
export interface LinesTestServer extends AccessTestServer {
  author: Caller;
  underwriter: Caller;
  adjuster: Caller;
  db: Database;
}

export async function startLinesServer(): Promise<LinesTestServer> {
  const server = await startAccessServer([linesPlugin]);
  return Object.assign(server, {
    author: server.as('author@atrium.test'),
    underwriter: server.as('underwriter@atrium.test'),
    adjuster: server.as('adjuster@atrium.test'),
    db: server.atrium.database.db as Database,
  });
}

/** The JSON body of a response, asserting its status first (the body is in the message when it differs). */
export async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The first error's detail of a problem document. */
export async function errorOf(response: Response | Promise<Response>, status: number): Promise<string> {
  const body = await expectStatus<{ errors: { detail: string }[]; detail?: string }>(response, status);
  return body.errors?.[0]?.detail ?? body.detail ?? '';
}
