import { describe, expect, it } from 'vitest';
import { cmdkFilter, createFuzzyIndex, fuzzyScore } from './fuzzy-match.js';

interface Item {
  id: string;
  title: string;
  keywords?: string[];
}

const items: Item[] = [
  { id: 'claims', title: 'Claims' },
  { id: 'claims-activity', title: 'Claims Activity Settings' },
  { id: 'new-quote', title: 'New Quote', keywords: ['create', 'quoting'] },
  { id: 'policies', title: 'Policies', keywords: ['policy', 'search'] },
  { id: 'policy-qs', title: 'Policy Quick Search', keywords: ['find'] },
  { id: 'reclaim', title: 'Reclaim deposit' },
  { id: 'access-roles', title: 'Access: Roles' },
];
const index = createFuzzyIndex(items, (i) => i);
const ids = (query: string) => index.search(query).map((r) => r.item.id);

describe('fuzzy matching', () => {
  it('ranks a title prefix above a mid-word match, shorter titles first', () => {
    expect(ids('claim')).toEqual(['claims', 'claims-activity', 'reclaim']);
  });

  it('matches keywords below titles', () => {
    expect(ids('policy')).toEqual(['policy-qs', 'policies']);
    expect(ids('create')).toEqual(['new-quote']);
  });

  it('matches subsequences (typo-tolerant abbreviations), consecutive and word-start letters first', () => {
    expect(ids('pqs')[0]).toBe('policy-qs');
    expect(ids('nq')).toEqual(['new-quote']);
    expect(ids('clmsact')).toEqual(['claims-activity']);
  });

  it('needs every word of the query to match', () => {
    expect(ids('quick policy')).toEqual(['policy-qs']);
    expect(ids('claims roles')).toEqual([]);
  });

  it('is case-insensitive and handles punctuation as word breaks', () => {
    expect(ids('ROLES')).toEqual(['access-roles']);
    expect(ids('zzz')).toEqual([]);
  });

  it('gives the same answers when narrowing keystroke by keystroke and when jumping', () => {
    const typed = createFuzzyIndex(items, (i) => i);
    for (const q of ['c', 'cl', 'cla', 'clai', 'claim']) typed.search(q);
    const narrowed = typed.search('claims a').map((r) => r.item.id);
    expect(narrowed[0]).toBe('claims-activity');
    expect(narrowed).toEqual(ids('claims a'));
    // Deleting characters widens again.
    expect(typed.search('cl').map((r) => r.item.id)).toEqual(ids('cl'));
    expect(typed.search('p').map((r) => r.item.id)).toEqual(ids('p'));
  });

  it('returns everything in original order for an empty query, and honours limit', () => {
    expect(ids('')).toEqual(items.map((i) => i.id));
    expect(index.search('', { limit: 2 })).toHaveLength(2);
    expect(index.search('c', { limit: 1 })).toHaveLength(1);
  });

  it('scores standalone and through a cmdk-compatible filter', () => {
    expect(fuzzyScore('quote', { title: 'New Quote' })).toBeGreaterThan(
      fuzzyScore('quote', { title: 'Quoting', keywords: ['quote'] }) - 1000,
    );
    expect(fuzzyScore('xyz', { title: 'New Quote' })).toBe(0);
    const filterScore = cmdkFilter('New Quote', 'nq');
    expect(filterScore).toBeGreaterThan(0);
    expect(filterScore).toBeLessThanOrEqual(1);
    expect(cmdkFilter('New Quote', 'zz')).toBe(0);
    expect(cmdkFilter('Open', 'create', ['create'])).toBeGreaterThan(0);
  });

  // Speed is measured by benchmark P4 (tests/bench/p4-palette.bench.ts), not by a timed unit test.
  it('searches 10,000 commands one keystroke at a time and still finds the exact one', () => {
    const words = ['claim', 'policy', 'quote', 'contact', 'report', 'rule', 'document', 'line', 'user', 'role'];
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      id: String(i),
      title: `${words[i % 10]} ${words[(i * 7) % 10]} command ${i}`,
      keywords: [words[(i * 3) % 10]!, `k${i}`],
    }));
    const big = createFuzzyIndex(many, (m) => m);
    // Typing "policy report" one keystroke at a time: each narrower query reuses the last matches,
    // so every result of a longer query must also match the shorter one.
    const query = 'policy report';
    let previous: Set<string> | null = null;
    for (let n = 1; n <= query.length; n++) {
      const found = big.search(query.slice(0, n), { limit: 10_000 }).map((r) => r.item.id);
      if (n === 1) expect(found.length).toBeGreaterThan(0);
      if (previous) for (const id of found) expect(previous.has(id)).toBe(true);
      previous = new Set(found);
    }
    const top = big.search('command 9999');
    expect(top[0]!.item.id).toBe('9999');
  });
});
