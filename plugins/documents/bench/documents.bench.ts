/* eslint-disable no-console -- a benchmark prints its figures. */
// npm run bench -- documents
// Render time of a one-page and a five-page declarations page through the render pool (child
// processes, as the API renders), and production-document throughput over 1,000 policies with 2
// render children. Targets (issue 18): 5-page p95 ≤ 300 ms, ≥ 20 documents/s.
import { SAMPLE_POLICY } from '../shared/data-points.js';
import { RenderPool } from '../server/render/pool.js';
import { HOMEOWNERS_DECLARATIONS } from '../server/seed/demo-templates.js';

const FIVE_PAGES = `${HOMEOWNERS_DECLARATIONS}
#for n in range(4) [
  #pagebreak()
  == Policy conditions, part #(n + 1)
  #lorem(400)
]
`;

function policy(i: number) {
  const p = structuredClone(SAMPLE_POLICY);
  p.policy.number = `HO-2026-${String(i).padStart(6, '0')}`;
  p.policy.premium = `${1000 + (i % 500)}.${String(i % 100).padStart(2, '0')}`;
  return p;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timed(pool: RenderPool, source: string, runs: number) {
  const times: number[] = [];
  let pages = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = await pool.render({ source, data: JSON.stringify(policy(i)), format: 'pdf', timestamp: 1767225600 });
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    pages = result.pageCount;
  }
  times.sort((a, b) => a - b);
  return { pages, p50: percentile(times, 50), p95: percentile(times, 95) };
}

const pool = new RenderPool({ size: 2 });
try {
  await pool.render({ source: 'warm', data: '{}', format: 'pdf', timestamp: 0 });
  await Promise.all(
    [1, 2].map(() => pool.render({ source: FIVE_PAGES, data: JSON.stringify(policy(0)), format: 'pdf', timestamp: 0 })),
  );
  for (const [label, source] of [
    ['one-page declaration (baseline)', HOMEOWNERS_DECLARATIONS],
    ['five-page declaration', FIVE_PAGES],
  ] as const) {
    const r = await timed(pool, source, 100);
    console.log(
      `${label}: ${r.pages} page(s), p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms (100 renders, one at a time)`,
    );
  }
  for (const [label, source] of [
    ['one-page', HOMEOWNERS_DECLARATIONS],
    ['five-page', FIVE_PAGES],
  ] as const) {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        pool.render({ source, data: JSON.stringify(policy(i)), format: 'pdf', timestamp: 1767225600 }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${label}: 1,000 policies in ${seconds.toFixed(1)} s = ${(1000 / seconds).toFixed(1)} documents/s with ${pool.size} render children`,
    );
  }
} finally {
  await pool.close();
}
