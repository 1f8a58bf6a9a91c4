/**
 * The palette's "Rate scenario" command reaches the open scenario through a window event: commands
 * get only the host services, and the rating state lives in the page. The page listens while a
 * scenario is open; the command is offered only on the scenario preview route.
 */
export const RATE_SCENARIO_EVENT = 'atrium:lines:rate-scenario';

export function requestScenarioRating(): void {
  window.dispatchEvent(new CustomEvent(RATE_SCENARIO_EVENT));
}

export function onScenarioRatingRequest(listener: () => void): () => void {
  window.addEventListener(RATE_SCENARIO_EVENT, listener);
  return () => window.removeEventListener(RATE_SCENARIO_EVENT, listener);
}
