import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import {
  Fuzzer,
  HOSTILE,
  HOSTILE_BODIES,
  fuzzSeed,
  loadOperations,
  report,
  statusSummary,
  seededRandom,
  targetsOf,
  type Case,
} from './fuzz-harness.js';

/**
 * Issue 14: every operation of the OpenAPI document, as the administrator, with a seeded sample of
 * hostile values (fuzz-harness.ts); any 5xx fails with the operation, the value and the seed
 * (replay: FUZZ_SEED=<seed>). `npm run test:full` sends every value (fuzz.sweep.api.test.ts).
 */
const PER_OPERATION = 3;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('fuzz of every operation (seeded sample)', () => {
  it('no hostile value gets a 5xx', async () => {
    const seed = fuzzSeed();
    const random = seededRandom(seed);
    const operations = await loadOperations(server);
    expect(operations.length).toBeGreaterThan(100);
    const cases: Case[] = [];
    for (const operation of operations) {
      const targets = targetsOf(operation);
      if (targets.length === 0) continue;
      for (let i = 0; i < PER_OPERATION; i++) {
        const target = targets[Math.floor(random() * targets.length)]!;
        const pool = target.kind === 'whole-body' ? HOSTILE_BODIES : HOSTILE;
        cases.push({ operation, target, hostile: pool[Math.floor(random() * pool.length)]! });
      }
    }
    const fuzzer = new Fuzzer(server);
    await fuzzer.run(cases);
    console.warn(
      `fuzz: ${operations.length} operations, ${fuzzer.sent} requests, seed ${seed}, ${fuzzer.known.length} known 5xx; ${statusSummary(fuzzer)}`,
    );
    expect(fuzzer.findings, report(fuzzer.findings, seed)).toEqual([]);
    // A guard against a hang, not a budget: some 700 requests took over 120 s on two busy cores.
  }, 600_000);
});
