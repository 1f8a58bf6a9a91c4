import { defaultStorage, type KeyValueStorage } from './key-value-storage.js';
import type { QuickSearchItem } from './quick-search.js';

/**
 * Recently viewed items per type (Policy, Claim, Contact), most recent first, capped, in local
 * storage as the spec keeps recent searches. A corrupt or foreign value reads as an empty list.
 */
export const RECENT_ITEMS_LIMIT = 10;
export const RECENT_ITEMS_KEY_PREFIX = 'atrium.recent.';

export interface RecentItemsStore {
  get(type: string): QuickSearchItem[];
  add(type: string, item: QuickSearchItem): QuickSearchItem[];
  remove(type: string, id: string): void;
  clear(type: string): void;
}

function isItem(value: unknown): value is QuickSearchItem {
  const v = value as QuickSearchItem;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.title === 'string' &&
    typeof v.to === 'string'
  );
}

export function createRecentItemsStore(
  options: { storage?: KeyValueStorage; limit?: number; keyPrefix?: string } = {},
): RecentItemsStore {
  const storage = options.storage ?? defaultStorage();
  const limit = options.limit ?? RECENT_ITEMS_LIMIT;
  const prefix = options.keyPrefix ?? RECENT_ITEMS_KEY_PREFIX;
  const keyOf = (type: string) => `${prefix}${type}`;

  const read = (type: string): QuickSearchItem[] => {
    try {
      const raw = storage.getItem(keyOf(type));
      if (!raw) return [];
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter(isItem).slice(0, limit) : [];
    } catch {
      return [];
    }
  };
  const write = (type: string, items: QuickSearchItem[]) => {
    try {
      storage.setItem(keyOf(type), JSON.stringify(items));
    } catch {
      // Quota exceeded or storage disabled: recent items are a convenience, not data.
    }
  };

  return {
    get: read,
    add(type, item) {
      const entry: QuickSearchItem = { id: item.id, title: item.title, to: item.to };
      if (item.subtitle !== undefined) entry.subtitle = item.subtitle;
      const next = [entry, ...read(type).filter((existing) => existing.id !== item.id)].slice(0, limit);
      write(type, next);
      return next;
    },
    remove(type, id) {
      write(
        type,
        read(type).filter((existing) => existing.id !== id),
      );
    },
    clear(type) {
      try {
        storage.removeItem(keyOf(type));
      } catch {
        // see write()
      }
    },
  };
}
