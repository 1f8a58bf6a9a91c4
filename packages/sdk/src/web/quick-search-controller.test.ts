import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api-client.js';
import { createMemoryStorage } from './key-value-storage.js';
import { defineQuickSearchProvider, type QuickSearchItem, type QuickSearchProvider } from './quick-search.js';
import { createQuickSearchController } from './quick-search-controller.js';
import { createRecentItemsStore } from './recent-items.js';

interface PolicyRow {
  number: string;
  insured: string;
}

const POLICIES: PolicyRow[] = Array.from({ length: 8 }, (_, i) => ({ number: `P-10${i}`, insured: `Insured ${i}` }));

/** An example provider proving the contract: searches an in-memory list, honours the abort signal. */
function policyProvider(overrides: Partial<QuickSearchProvider<PolicyRow>> = {}) {
  const search = vi.fn(async ({ query, signal }: { query: string; signal: AbortSignal; api?: ApiClient }) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
    return POLICIES.filter((p) => p.number.toLowerCase().includes(query.toLowerCase()));
  });
  const provider = defineQuickSearchProvider<PolicyRow>({
    id: 'policies',
    type: 'Policy',
    typePlural: 'Policies',
    prefix: 'P-',
    search,
    toItem: (p) => ({ id: p.number, title: p.number, subtitle: p.insured, to: `/policies/${p.number}` }),
    ...overrides,
  });
  return { provider, search };
}

function setup(overrides: Partial<QuickSearchProvider<PolicyRow>> = {}, recentItems: QuickSearchItem[] = []) {
  const { provider, search } = policyProvider(overrides);
  const recent = createRecentItemsStore({ storage: createMemoryStorage() });
  for (const item of [...recentItems].reverse()) recent.add('Policy', item);
  const onOpen = vi.fn();
  const controller = createQuickSearchController({ provider, recent, onOpen });
  return { controller, search, recent, onOpen, state: () => controller.getState() };
}

describe('quick search controller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("titles the modal '{type} Quick Search' and shows recently viewed items for empty input", () => {
    const recentItem = { id: 'P-7', title: 'P-7', to: '/policies/P-7' };
    const { state } = setup({}, [recentItem]);
    expect(state()).toMatchObject({
      title: 'Policy Quick Search',
      header: 'Recently Viewed Policies',
      placeholder: 'P-',
      showingRecent: true,
      items: [recentItem],
      selectedIndex: 0,
      emptyMessage: null,
    });
  });

  it("hands the host's API client to the provider's search", async () => {
    const { provider, search } = policyProvider();
    const api = { marker: 'host api' } as unknown as ApiClient;
    const recent = createRecentItemsStore({ storage: createMemoryStorage() });
    const controller = createQuickSearchController({ provider, recent, onOpen: vi.fn(), api });
    controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(400);
    expect(search.mock.calls[0]![0]).toMatchObject({ query: 'P-1', api });
    controller.dispose();
  });

  it('does not search one character, and never says "no matching" for it', async () => {
    const { controller, search, state } = setup();
    controller.setQuery('P');
    await vi.advanceTimersByTimeAsync(1000);
    expect(search).not.toHaveBeenCalled();
    expect(state()).toMatchObject({ header: 'Matching Policies', items: [], emptyMessage: null, fetching: false });
  });

  it('debounces 250 ms and searches only the last input', async () => {
    const { controller, search, state } = setup();
    controller.setQuery('P-');
    await vi.advanceTimersByTimeAsync(200);
    controller.setQuery('P-10');
    await vi.advanceTimersByTimeAsync(249);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]![0].query).toBe('P-10');
    expect(state().fetching).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(state().fetching).toBe(false);
  });

  it('shows at most 5 results under "Matching {types}" with the first selected', async () => {
    const { controller, state } = setup();
    controller.setQuery('P-10');
    await vi.advanceTimersByTimeAsync(350);
    expect(state().header).toBe('Matching Policies');
    expect(state().items.map((i) => i.id)).toEqual(['P-100', 'P-101', 'P-102', 'P-103', 'P-104']);
    expect(state().items[0]).toEqual({ id: 'P-100', title: 'P-100', subtitle: 'Insured 0', to: '/policies/P-100' });
    expect(state().selectedIndex).toBe(0);
  });

  it('aborts a stale search when the input changes and ignores its late answer', async () => {
    const answers: Record<string, (rows: PolicyRow[]) => void> = {};
    const signals: AbortSignal[] = [];
    const { controller, state } = setup({
      search: ({ query, signal }) => {
        signals.push(signal);
        return new Promise((resolve) => (answers[query] = resolve));
      },
    });
    controller.setQuery('P-100');
    await vi.advanceTimersByTimeAsync(250);
    controller.setQuery('P-101');
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(250);
    answers['P-101']!([POLICIES[1]!]);
    answers['P-100']!([POLICIES[0]!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(state().items.map((i) => i.id)).toEqual(['P-101']);
    expect(signals[1]!.aborted).toBe(false);
  });

  it("says 'No matching {types} found.' only once a search for this input has finished empty", async () => {
    const { controller, state } = setup();
    controller.setQuery('zz');
    expect(state().emptyMessage).toBeNull(); // debounce pending
    await vi.advanceTimersByTimeAsync(250);
    expect(state().fetching).toBe(true);
    expect(state().emptyMessage).toBeNull(); // fetching
    await vi.advanceTimersByTimeAsync(100);
    expect(state().emptyMessage).toBe('No matching Policies found.');
    controller.setQuery('zzz');
    expect(state().emptyMessage).toBeNull(); // results are for the old input
  });

  it('isolates a failing provider: shows its error, never throws, and recovers', async () => {
    let fail = true;
    const { controller, state } = setup({
      search: async () => {
        if (fail) throw new Error('Policy service is down');
        return [POLICIES[0]!];
      },
    });
    controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(250);
    expect(state()).toMatchObject({ error: 'Policy service is down', items: [], fetching: false, emptyMessage: null });
    fail = false;
    controller.setQuery('P-10');
    expect(state().error).toBeNull();
    await vi.advanceTimersByTimeAsync(250);
    expect(state().items).toHaveLength(1);
  });

  it('isolates a provider that throws synchronously or fails in toItem', async () => {
    const sync = setup({
      search: () => {
        throw new Error('sync boom');
      },
    });
    sync.controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(250);
    expect(sync.state().error).toBe('sync boom');

    const mapping = setup({
      toItem: () => {
        throw new Error('bad row');
      },
    });
    mapping.controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(350);
    expect(mapping.state().error).toBe('bad row');
  });

  it('moves the selection with Up/Down, wrapping at both ends', async () => {
    const { controller, state } = setup();
    controller.setQuery('P-10');
    await vi.advanceTimersByTimeAsync(350);
    expect(controller.handleKey('ArrowUp')).toBe(true);
    expect(state().selectedIndex).toBe(4);
    controller.handleKey('ArrowDown');
    expect(state().selectedIndex).toBe(0);
    controller.handleKey('ArrowDown');
    controller.handleKey('ArrowDown');
    expect(state().selectedIndex).toBe(2);
  });

  it('opens the selected item on Enter and records it as recently viewed, most recent first', async () => {
    const { controller, onOpen, recent, state } = setup({}, [{ id: 'P-105', title: 'P-105', to: '/policies/P-105' }]);
    controller.setQuery('P-10');
    await vi.advanceTimersByTimeAsync(350);
    controller.handleKey('ArrowDown');
    expect(controller.handleKey('Enter')).toBe(true);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 'P-101', to: '/policies/P-101' }));
    expect(recent.get('Policy').map((i) => i.id)).toEqual(['P-101', 'P-105']);
    controller.setQuery('');
    expect(state()).toMatchObject({ header: 'Recently Viewed Policies', showingRecent: true });
    expect(state().items.map((i) => i.id)).toEqual(['P-101', 'P-105']);
  });

  it('does nothing on Enter with nothing selected', () => {
    const { controller, onOpen } = setup();
    expect(controller.handleKey('Enter')).toBe(false);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('fills the prefix on Tab into an empty input, but not for providers without one (contacts)', () => {
    const policies = setup();
    expect(policies.controller.handleKey('Tab')).toBe(true);
    expect(policies.state().query).toBe('P-');
    expect(policies.controller.handleKey('Tab')).toBe(false);

    const contacts = setup({ prefix: undefined, type: 'Contact', typePlural: 'Contacts' });
    expect(contacts.controller.handleKey('Tab')).toBe(false);
    expect(contacts.state()).toMatchObject({ query: '', placeholder: '', title: 'Contact Quick Search' });
  });

  it('honours a provider minimum length above the default', async () => {
    const { controller, search } = setup({ minLength: 3 });
    controller.setQuery('P-');
    await vi.advanceTimersByTimeAsync(500);
    expect(search).not.toHaveBeenCalled();
    controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(250);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('aborts the in-flight search and goes quiet when disposed', async () => {
    const signals: AbortSignal[] = [];
    const { controller } = setup({
      search: ({ signal }) => {
        signals.push(signal);
        return new Promise(() => undefined);
      },
    });
    const listener = vi.fn();
    controller.subscribe(listener);
    controller.setQuery('P-1');
    await vi.advanceTimersByTimeAsync(250);
    controller.dispose();
    expect(signals[0]!.aborted).toBe(true);
    listener.mockClear();
    controller.setQuery('P-2');
    expect(listener).not.toHaveBeenCalled();
  });
});
