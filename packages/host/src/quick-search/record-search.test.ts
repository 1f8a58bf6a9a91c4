import { defineQuickSearchProvider, type QuickSearchQuery } from '@atrium/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecordSearch } from './record-search.js';

interface Hit {
  n: string;
}

/** A provider whose searches the test answers by hand, recording every call and its signal. */
function manualProvider(id: string, type: string, minLength = 2) {
  const calls: { query: string; signal: AbortSignal; resolve(hits: Hit[]): void; reject(error: Error): void }[] = [];
  const provider = defineQuickSearchProvider<Hit>({
    id,
    type,
    typePlural: `${type}s`,
    minLength,
    search: ({ query, signal }: QuickSearchQuery) =>
      new Promise<Hit[]>((resolve, reject) => calls.push({ query, signal, resolve, reject })),
    toItem: (hit) => ({ id: hit.n, title: hit.n, to: `/${id}/${hit.n}` }),
  });
  return { provider, calls };
}

const hits = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ n: `${prefix}-${i + 1}` }));

describe('record search in the palette', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks every provider after a pause in typing, once, and groups their capped hits', async () => {
    const claims = manualProvider('claims', 'Claim');
    const contacts = manualProvider('contacts', 'Contact');
    const search = createRecordSearch({
      providers: [claims.provider, contacts.provider],
      debounceMs: 250,
      perProvider: 3,
    });
    for (const text of ['C', 'CL', 'CLM', 'CLM-4']) {
      search.setQuery(text);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(claims.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(150);
    expect(claims.calls.map((c) => c.query)).toEqual(['CLM-4']);
    expect(contacts.calls.map((c) => c.query)).toEqual(['CLM-4']);
    expect(search.getState().groups.map((g) => [g.typePlural, g.pending])).toEqual([
      ['Claims', true],
      ['Contacts', true],
    ]);

    claims.calls[0]!.resolve(hits('CLM', 7));
    await vi.advanceTimersByTimeAsync(0);
    const [claimGroup, contactGroup] = search.getState().groups;
    expect(claimGroup!.items.map((i) => i.title)).toEqual(['CLM-1', 'CLM-2', 'CLM-3']);
    expect(claimGroup!.pending).toBe(false);
    // The slow provider does not hold back the quick one.
    expect(contactGroup!.pending).toBe(true);
  });

  it('aborts the previous text searches on a new keystroke and ignores their late answers', async () => {
    const claims = manualProvider('claims', 'Claim');
    const search = createRecordSearch({ providers: [claims.provider], debounceMs: 250 });
    search.setQuery('CLM-1');
    await vi.advanceTimersByTimeAsync(250);
    const first = claims.calls[0]!;
    search.setQuery('CLM-12');
    expect(first.signal.aborted).toBe(true);
    first.resolve(hits('OLD', 2));
    await vi.advanceTimersByTimeAsync(250);
    claims.calls[1]!.resolve(hits('NEW', 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(search.getState().query).toBe('CLM-12');
    expect(search.getState().groups[0]!.items.map((i) => i.title)).toEqual(['NEW-1']);
  });

  it('keeps a failing provider to its own group', async () => {
    const claims = manualProvider('claims', 'Claim');
    const policies = manualProvider('policies', 'Policy');
    const search = createRecordSearch({ providers: [claims.provider, policies.provider], debounceMs: 10 });
    search.setQuery('40');
    await vi.advanceTimersByTimeAsync(10);
    policies.calls[0]!.reject(new Error('The policy service did not answer.'));
    claims.calls[0]!.resolve(hits('CLM', 1));
    await vi.advanceTimersByTimeAsync(0);
    const [claimGroup, policyGroup] = search.getState().groups;
    expect(claimGroup).toMatchObject({ pending: false, error: null });
    expect(claimGroup!.items).toHaveLength(1);
    expect(policyGroup).toMatchObject({ pending: false, error: 'The policy service did not answer.', items: [] });
  });

  it('asks only providers whose minimum length the text reaches, and clears with short text', async () => {
    const lines = manualProvider('lines', 'Line', 1);
    const claims = manualProvider('claims', 'Claim', 2);
    const search = createRecordSearch({ providers: [lines.provider, claims.provider], debounceMs: 10 });
    search.setQuery('H');
    await vi.advanceTimersByTimeAsync(10);
    expect(lines.calls).toHaveLength(1);
    expect(claims.calls).toHaveLength(0);
    expect(search.getState().groups.map((g) => g.providerId)).toEqual(['lines']);
    search.setQuery(' ');
    expect(lines.calls[0]!.signal.aborted).toBe(true);
    expect(search.getState().groups).toEqual([]);
  });

  it('stops searching once disposed', async () => {
    const claims = manualProvider('claims', 'Claim');
    const search = createRecordSearch({ providers: [claims.provider], debounceMs: 10 });
    search.setQuery('CLM');
    search.dispose();
    await vi.advanceTimersByTimeAsync(50);
    expect(claims.calls).toHaveLength(0);
  });
});
