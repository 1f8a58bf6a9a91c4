import { useMachine } from '@xstate/react';
import { useMemo, useRef, useState } from 'react';
import {
  ApiRequestError,
  createJobRunnerMachine,
  jobRunnerPhase,
  useApiClient,
  type JobStatusReport,
} from '@atrium/sdk';
import type { JobJson } from '../../shared/api-types.js';
import { serverMessage } from '../format.js';

/**
 * How often a rules job is polled. The SDK's default is 3 s; rules jobs are short and someone waits
 * for each (the `rules-build` queue is polled every second), so every second.
 */
export const RULES_JOB_POLL_MS = 1000;

/**
 * A job run by the SDK's job runner machine: `start` posts it (202 with the job), then
 * `GET rules/job/{id}/` is polled every second until it is neither NEW nor IN_PROGRESS. `start` is
 * read when the job runs, so it may close over the latest state (a commit message, a commit id).
 * `cancel` asks the server to cancel the job (`POST rules/job/{id}/cancel/`), then halts the machine;
 * when the job had already finished (409) polling goes on and shows how it ended.
 */
export function useRulesJob(start: () => Promise<JobStatusReport>) {
  const api = useApiClient();
  const startRef = useRef(start);
  startRef.current = start;
  const machine = useMemo(() => createJobRunnerMachine(), []);
  const [state, send] = useMachine(machine, {
    input: {
      // A refused start (e.g. a 409: nothing deployable, a job already running) shows the server's
      // reason, not the client's generic message for the status.
      start: async () => {
        try {
          return await startRef.current();
        } catch (error) {
          throw new Error(serverMessage(error));
        }
      },
      check: (job) => api.get<JobStatusReport>(`/rules/job/${String(job.id)}/`),
      pollInterval: RULES_JOB_POLL_MS,
    },
  });
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const started = state.context.job;
  const cancel = async () => {
    setCancelError(null);
    if (!started) {
      send({ type: 'CANCEL' });
      return;
    }
    setCancelling(true);
    try {
      await api.post(`/rules/job/${String(started.id)}/cancel/`, {});
      send({ type: 'CANCEL' });
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 409)) setCancelError(serverMessage(error));
    } finally {
      setCancelling(false);
    }
  };
  return {
    phase: jobRunnerPhase(state.value),
    progress: state.context.progress,
    job: state.context.report as JobJson | null,
    error: state.context.error,
    run: () => {
      setCancelError(null);
      send({ type: 'RUN' });
    },
    tryAgain: () => send({ type: 'TRY_AGAIN' }),
    cancel,
    cancelling,
    cancelError,
  };
}

/** A validate or test job of one effective date (`POST …/build/validate/` or `…/build/async-test/`). */
export function useBuildJob(kind: 'validate' | 'test', projectId: string, effectiveDateId: number | null) {
  const api = useApiClient();
  return useRulesJob(() =>
    api.post<JobStatusReport>(
      `/rules/projects/${projectId}/build/${kind === 'validate' ? 'validate' : 'async-test'}/`,
      effectiveDateId === null ? {} : { effective_date_id: effectiveDateId },
    ),
  );
}
