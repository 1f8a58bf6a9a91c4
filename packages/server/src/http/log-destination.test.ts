import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { turnBatchedLogDestination } from './log-destination.js';

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('turn-batched log destination', () => {
  it('writes every line of one event-loop turn, in order, and a lone line without waiting for more', async () => {
    const file = path.join(dir, 'out.log');
    // The asynchronous destination opens the file in the background (appending): made here first,
    // so "nothing written yet" reads as empty rather than as a missing file.
    writeFileSync(file, '');
    const destination = turnBatchedLogDestination(file);
    destination.write('{"n":1}\n');
    destination.write('{"n":2}\n');
    destination.write('{"n":3}\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n'));
    destination.write('{"n":4}\n');
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toMatch(/\{"n":4\}\n$/));
  });

  it('is one destination per target', async () => {
    const file = path.join(dir, 'shared.log');
    expect(turnBatchedLogDestination(file)).toBe(turnBatchedLogDestination(file));
    // The destination opens (creates) its file in the background: wait for it, or afterAll's rmSync
    // can remove the folder first and the open fails as an uncaught ENOENT in a later file.
    await vi.waitFor(() => expect(existsSync(file)).toBe(true));
  });
});
