import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from './key-value-storage.js';
import { createRecentItemsStore, RECENT_ITEMS_KEY_PREFIX } from './recent-items.js';

const item = (id: string) => ({ id, title: `Policy ${id}`, to: `/policies/${id}` });

describe('recent items', () => {
  it('keeps items per type, most recent first, without duplicates, capped', () => {
    const storage = createMemoryStorage();
    const recent = createRecentItemsStore({ storage, limit: 3 });
    for (const id of ['1', '2', '3', '2', '4']) recent.add('Policy', item(id));
    recent.add('Claim', { id: 'c1', title: 'Claim 1', subtitle: 'Open', to: '/claims/c1' });
    expect(recent.get('Policy').map((i) => i.id)).toEqual(['4', '2', '3']);
    expect(recent.get('Claim')).toEqual([{ id: 'c1', title: 'Claim 1', subtitle: 'Open', to: '/claims/c1' }]);
    // Survives a new store over the same storage (a page reload).
    expect(
      createRecentItemsStore({ storage })
        .get('Policy')
        .map((i) => i.id),
    ).toEqual(['4', '2', '3']);
    expect(storage.data.has(`${RECENT_ITEMS_KEY_PREFIX}Policy`)).toBe(true);
  });

  it('reads corrupt or foreign values as empty and drops malformed entries', () => {
    const storage = createMemoryStorage({
      [`${RECENT_ITEMS_KEY_PREFIX}Policy`]: '{not json',
      [`${RECENT_ITEMS_KEY_PREFIX}Claim`]: JSON.stringify([item('ok'), { id: 1 }, null]),
    });
    const recent = createRecentItemsStore({ storage });
    expect(recent.get('Policy')).toEqual([]);
    expect(recent.get('Claim').map((i) => i.id)).toEqual(['ok']);
  });

  it('keeps working when storage throws (quota, disabled storage)', () => {
    const recent = createRecentItemsStore({
      storage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('quota');
        },
        removeItem: () => {
          throw new Error('denied');
        },
      },
    });
    expect(() => recent.add('Policy', item('1'))).not.toThrow();
    expect(recent.get('Policy')).toEqual([]);
    expect(() => recent.clear('Policy')).not.toThrow();
  });

  it('removes one item or clears a type', () => {
    const recent = createRecentItemsStore({ storage: createMemoryStorage() });
    recent.add('Policy', item('1'));
    recent.add('Policy', item('2'));
    recent.remove('Policy', '1');
    expect(recent.get('Policy').map((i) => i.id)).toEqual(['2']);
    recent.clear('Policy');
    expect(recent.get('Policy')).toEqual([]);
  });
});
