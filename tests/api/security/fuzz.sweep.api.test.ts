import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFullSweep, startTestServer, type TestServer } from '@atrium/sdk/testing';
import {
  Fuzzer,
  HOSTILE,
  HOSTILE_BODIES,
  loadOperations,
  report,
  statusSummary,
  targetsOf,
  type Case,
} from './fuzz-harness.js';

/**
 * The whole fuzz, in `npm run test:full` only: every hostile value to every operation, the values
 * spread round-robin over the operation's places (each path and query parameter, each body field,
 * the whole body). `npm test` runs the seeded sample instead (fuzz.api.test.ts), so this file skips
 * there rather than starting a second server for a second sample.
 */
describe.runIf(isFullSweep())('fuzz of every operation (full sweep)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('no hostile value gets a 5xx', { timeout: 1_200_000 }, async () => {
    const operations = await loadOperations(server);
    const cases: Case[] = [];
    for (const operation of operations) {
      const targets = targetsOf(operation);
      const fieldTargets = targets.filter((t) => t.kind !== 'whole-body');
      if (fieldTargets.length > 0) {
        HOSTILE.forEach((hostile, i) =>
          cases.push({ operation, target: fieldTargets[i % fieldTargets.length]!, hostile }),
        );
      }
      if (targets.some((t) => t.kind === 'whole-body')) {
        for (const hostile of HOSTILE_BODIES) cases.push({ operation, target: { kind: 'whole-body' }, hostile });
      }
    }
    const fuzzer = new Fuzzer(server);
    await fuzzer.run(cases);
    console.warn(
      `fuzz sweep: ${operations.length} operations, ${fuzzer.sent} requests, ${fuzzer.known.length} known 5xx; ${statusSummary(fuzzer)}`,
    );
    expect(fuzzer.findings, report(fuzzer.findings, 0)).toEqual([]);
  });
});
