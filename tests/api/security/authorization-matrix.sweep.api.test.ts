import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFullSweep, startTestServer, type TestServer } from '@atrium/sdk/testing';
import { matrixMismatches, prepareMatrix, type Matrix } from './authorization-harness.js';

/**
 * The whole authorization matrix, in `npm run test:full` only: every operation that declares a
 * permission, as every demo role, against the evaluator's answer (authorization-harness.ts).
 * `npm test` runs a daily sample of the operations instead (authorization-matrix.api.test.ts).
 */
describe.runIf(isFullSweep())('operations answer as the evaluator says, for every demo role (full sweep)', () => {
  let server: TestServer;
  let matrix: Matrix;
  beforeAll(async () => {
    server = await startTestServer();
    matrix = await prepareMatrix(server);
  }, 300_000);
  afterAll(() => server?.close());

  it('denied ⇒ 403, allowed ⇒ not 403', { timeout: 1_200_000 }, async () => {
    expect(matrix.operations.length).toBeGreaterThan(500);
    const { mismatches, summary } = await matrixMismatches(matrix, matrix.operations);
    console.warn(`authorization matrix sweep: ${summary}`);
    expect(mismatches).toEqual([]);
  });
});
