/**
 * The spec's rule for scenario rating: "only the latest rating response is applied; stale ones are
 * ignored". Each `start()` numbers a request and aborts the one before it; a response is applied only
 * while its number is still the latest, so a slow answer to an earlier Rate click can never replace
 * the answer to a later one (even when the server ignored the abort and answered anyway).
 */
export interface LatestTicket {
  signal: AbortSignal;
  /** True while no later request has started (and `cancel` was not called). */
  isLatest(): boolean;
}

export interface LatestOnly {
  start(): LatestTicket;
  /** Forgets the request in flight (on unmount, or when the scenario changes). */
  cancel(): void;
}

export function createLatestOnly(): LatestOnly {
  let latest = 0;
  let controller: AbortController | null = null;
  return {
    start() {
      controller?.abort();
      const own = new AbortController();
      controller = own;
      latest += 1;
      const number = latest;
      return { signal: own.signal, isLatest: () => number === latest && !own.signal.aborted };
    },
    cancel() {
      controller?.abort();
      controller = null;
      latest += 1;
    },
  };
}

/**
 * Runs `request` as the latest one and hands its outcome to `apply` / `fail` only if it is still the
 * latest when it settles. Resolves to whether the outcome was applied.
 */
export async function runLatest<T>(
  gate: LatestOnly,
  request: (signal: AbortSignal) => Promise<T>,
  apply: (value: T) => void,
  fail: (error: unknown) => void,
): Promise<boolean> {
  const ticket = gate.start();
  try {
    const value = await request(ticket.signal);
    if (!ticket.isLatest()) return false;
    apply(value);
    return true;
  } catch (error) {
    if (!ticket.isLatest()) return false;
    fail(error);
    return true;
  }
}
