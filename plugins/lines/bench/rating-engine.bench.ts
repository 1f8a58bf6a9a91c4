/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * Rating engine, in process: the demo homeowners scenario (a home with dwelling, liability and
 * scheduled jewelry over two scheduled articles: 2 computed fields and 14 calculations in all,
 * 7 rate tables with interpolation and range keys, a worksheet per rating) rated 10,000 times against one compiled product.
 * Prints ratings/s and p50 / p99 per rating.
 */
import { loadavg } from 'node:os';
import { compileProduct, rate } from '@atrium/rating';
import { homeownersProduct, homeownersScenario } from '../../../packages/rating/src/fixtures/homeowners.js';

const RATINGS = Number(process.env.BENCH_RATINGS ?? 10_000);
const WARMUP = 1_000;
const EXPECTED = '1789.60';

const product = compileProduct(homeownersProduct);
const request = {
  termStart: '2026-01-01',
  termEnd: '2027-01-01',
  transactionType: 'new_business' as const,
  risk: homeownersScenario,
};

for (let i = 0; i < WARMUP; i++) rate(product, request);

const samples = new Float64Array(RATINGS);
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < RATINGS; i++) {
  const t0 = process.hrtime.bigint();
  const result = rate(product, request);
  samples[i] = Number(process.hrtime.bigint() - t0) / 1000;
  if (result.premium !== EXPECTED) throw new Error(`premium ${result.premium}, expected ${EXPECTED}`);
}
const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuBefore);
const cpuUsPerRating = (cpu.user + cpu.system) / RATINGS;
samples.sort();
const pct = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)]!;

console.log(`rating engine: demo homeowners scenario rated ${RATINGS} times in process (premium ${EXPECTED})`);
console.log(`  ratings/s  ${Math.round(RATINGS / (totalMs / 1000))}`);
console.log(`  total      ${totalMs.toFixed(0)} ms`);
console.log(`  p50        ${pct(50).toFixed(1)} µs`);
console.log(`  p99        ${pct(99).toFixed(1)} µs`);
console.log(`  max        ${samples[samples.length - 1]!.toFixed(1)} µs`);
// CPU time per rating separates the engine's own cost from waiting for a busy machine's cores.
console.log(`  cpu        ${cpuUsPerRating.toFixed(1)} µs per rating (load average ${loadavg()[0]!.toFixed(1)})`);
