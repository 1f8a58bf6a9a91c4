import { defaultStorage, type KeyValueStorage } from '@atrium/sdk';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useRuntimeStore } from '../host-runtime-context.js';

/**
 * Whether the main sidebar is folded to its icon rail, remembered per user in local storage (one
 * person's choice on a shared machine does not change another's). Until a user chooses, it is
 * folded on windows narrower than WIDE_WINDOW so content keeps the room it needs.
 */
export const WIDE_WINDOW = 1280;

export function sidebarPreferenceKey(userId: string | number | null | undefined): string {
  return `atrium.shell.${userId ?? 'anonymous'}.sidebar-collapsed`;
}

/** The user's stored choice, or null when they have not chosen. */
export function readSidebarCollapsed(storage: KeyValueStorage, key: string): boolean | null {
  const stored = storage.getItem(key);
  return stored === 'true' || stored === 'false' ? stored === 'true' : null;
}

export function useSidebarCollapsed(
  storage: KeyValueStorage = defaultStorage(),
): [boolean, (collapsed: boolean) => void] {
  const userId = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session?.user.id ?? null,
  );
  const key = sidebarPreferenceKey(userId);
  // Follows the window while the user has not chosen.
  const narrow = useMediaQuery(`(max-width: ${WIDE_WINDOW - 1}px)`, false) ?? false;
  // Keyed by user: signing in as someone else reads their choice.
  const [state, setState] = useState(() => ({ key, collapsed: readSidebarCollapsed(storage, key) }));
  const chosen = state.key === key ? state.collapsed : readSidebarCollapsed(storage, key);
  const collapsed = chosen ?? narrow;
  const setCollapsed = useCallback(
    (next: boolean) => {
      storage.setItem(key, String(next));
      setState({ key, collapsed: next });
    },
    [key, storage],
  );
  return [collapsed, setCollapsed];
}
