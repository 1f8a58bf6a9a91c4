/**
 * Whole-app sweeps (a navigation walker over every page, a fuzz of every operation) take minutes in
 * full. `npm test` runs them on a sample so that the suite stays within its budget; `npm run
 * test:full` (ATRIUM_TEST_FULL=1, its own step in .ci/run) runs them whole. Name such a file
 * `*.sweep.*.test.ts` (e.g. `tests/e2e/navigation.sweep.e2e.test.ts`): test:full runs exactly those.
 */

/** True in `npm run test:full`: a sweep covers everything. */
export function isFullSweep(): boolean {
  return process.env.ATRIUM_TEST_FULL === '1';
}

/**
 * The items a sweep covers: all of them in a full run, otherwise `count` of them spread evenly over
 * the list. The sample moves along by one step each day (or by ATRIUM_TEST_SWEEP_OFFSET), so a week of
 * runs covers more than one run does while any one day's failure reproduces with the same sample.
 */
export function sweepSample<T>(items: readonly T[], count: number): T[] {
  if (isFullSweep() || items.length <= count) return [...items];
  const step = items.length / count;
  const day = Math.floor(Date.now() / 86_400_000);
  const offset = Number(process.env.ATRIUM_TEST_SWEEP_OFFSET ?? day) % Math.max(1, Math.floor(step));
  return Array.from({ length: count }, (_, i) => items[Math.min(items.length - 1, Math.floor(i * step) + offset)]!);
}
