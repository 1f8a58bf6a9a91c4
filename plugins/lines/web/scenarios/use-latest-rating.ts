import { useApiClient } from '@atrium/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createLatestOnly } from './latest-only.js';
import { runLatest } from './latest-only.js';
import { rateScenario, type Rating, type ScenarioScope } from './scenarios-api.js';

export interface LatestRatingState {
  rating: Rating | null;
  error: unknown;
  /** A rating request is in flight. */
  rating_pending: boolean;
  /** How many responses were applied (for the status line). */
  applied: number;
}

/**
 * Rates a scenario on demand; only the latest response is applied (spec, "States and transitions"):
 * a click while an earlier rating is in flight aborts it, and if its answer still arrives it is
 * dropped. Changing or closing the scenario drops whatever is in flight.
 */
export function useLatestRating(scope: ScenarioScope, scenarioId: number) {
  const api = useApiClient();
  const gate = useRef(createLatestOnly());
  const [state, setState] = useState<LatestRatingState>({
    rating: null,
    error: null,
    rating_pending: false,
    applied: 0,
  });

  useEffect(() => {
    const current = gate.current;
    setState({ rating: null, error: null, rating_pending: false, applied: 0 });
    return () => current.cancel();
  }, [scope.productId, scope.versionId, scenarioId]);

  const rate = useCallback(() => {
    setState((s) => ({ ...s, rating_pending: true }));
    return runLatest(
      gate.current,
      (signal) => rateScenario(api, scope, scenarioId, signal),
      (rating) => setState((s) => ({ rating, error: null, rating_pending: false, applied: s.applied + 1 })),
      (error) => setState((s) => ({ ...s, error, rating_pending: false })),
    );
  }, [api, scope, scenarioId]);

  return { ...state, rate };
}
