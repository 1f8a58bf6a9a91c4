import { ApiError } from '@atrium/sdk/server';
import { RenderLimitError, RenderPool, type Diagnostic } from './pool.js';

/**
 * One render pool per server (keyed by its database handle, which the routes and the services the
 * server builds share), created on the first render and closed with the server.
 */
const pools = new WeakMap<object, RenderPool>();

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export function poolFor(key: object): RenderPool {
  let pool = pools.get(key);
  if (!pool) {
    pool = new RenderPool({
      size: positive(process.env.ATRIUM_DOCUMENTS_RENDER_CHILDREN, 2),
      timeoutMs: positive(process.env.ATRIUM_DOCUMENTS_RENDER_TIMEOUT_MS, 10_000),
      memoryMb: positive(process.env.ATRIUM_DOCUMENTS_RENDER_MEMORY_MB, 1024),
    });
    pools.set(key, pool);
  }
  return pool;
}

export async function closePoolFor(key: object): Promise<void> {
  const pool = pools.get(key);
  pools.delete(key);
  await pool?.close();
}

export function describe(diagnostics: Diagnostic[]): { detail: string; line: number | null; column: number | null } {
  const first = diagnostics[0] ?? { message: 'The template did not compile.', line: null, column: null };
  const where =
    first.line !== null ? `Line ${first.line}${first.column !== null ? `, column ${first.column}` : ''}: ` : '';
  return { detail: `${where}${first.message}`, line: first.line, column: first.column };
}

const unixSeconds = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`) / 1000;

/** Renders on the pool; a template that breaks a limit or does not compile is a 422. */
export async function renderOn(
  pool: RenderPool,
  job: {
    source: string;
    data: unknown;
    format: 'pdf' | 'svg';
    date: string;
    files?: { path: string; base64: string }[];
  },
) {
  try {
    const result = await pool.render({
      source: job.source,
      data: JSON.stringify(job.data),
      format: job.format,
      timestamp: unixSeconds(job.date),
      files: job.files,
    });
    if (!result.ok) {
      const { detail, line, column } = describe(result.diagnostics);
      throw new ApiError(422, detail, {
        code: 'template_error',
        meta: { line, column, diagnostics: result.diagnostics },
      });
    }
    return result;
  } catch (error) {
    if (error instanceof RenderLimitError) throw new ApiError(422, error.message, { code: 'render_limit' });
    throw error;
  }
}
