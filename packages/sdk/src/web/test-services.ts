import { vi } from 'vitest';
import type { HostServices, ToastRequest } from './command.js';

/**
 * Spy host services for this folder's tests. Cast because the host widens HostServices by
 * declaration merging; the SDK's own tests only use the three basic services.
 */
export function fakeHostServices() {
  const spies = {
    navigate: vi.fn<(to: string) => void>(),
    openQuickSearch: vi.fn<(providerId: string) => void>(),
    showToast: vi.fn<(toast: ToastRequest) => void>(),
  };
  return spies as typeof spies & HostServices;
}
