import { useSyncExternalStore } from 'react';

/**
 * The claim whose workspace is open, for the palette commands that act on it (add reserve, add
 * payment) and the claims activity panel. The workspace sets it while mounted; the commands are
 * offered only on workspace routes (their `when` clauses), so a stale value is never used.
 */
let openClaimNumber: string | null = null;
const listeners = new Set<() => void>();

export function setOpenClaim(number: string | null): void {
  if (openClaimNumber === number) return;
  openClaimNumber = number;
  for (const listener of [...listeners]) listener();
}

export function openClaim(): string | null {
  return openClaimNumber;
}

export function useOpenClaim(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    openClaim,
    openClaim,
  );
}
