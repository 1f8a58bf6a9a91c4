import { useMachine } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { createJobRunnerMachine, jobRunnerPhase, useApiClient, type JobStatusReport } from '@atrium/sdk';
import type { JobJson } from '../../shared/api-types.js';

/**
 * A job run by the SDK's job runner machine: `start` posts it (202 with the job), then
 * `GET rules/job/{id}/` is polled every 3 s until it is neither NEW nor IN_PROGRESS. `start` is
 * read when the job runs, so it may close over the latest state (a commit message, a commit id).
 */
export function useRulesJob(start: () => Promise<JobStatusReport>) {
  const api = useApiClient();
  const startRef = useRef(start);
  startRef.current = start;
  const machine = useMemo(() => createJobRunnerMachine(), []);
  const [state, send] = useMachine(machine, {
    input: {
      start: () => startRef.current(),
      check: (job) => api.get<JobStatusReport>(`/rules/job/${String(job.id)}/`),
    },
  });
  return {
    phase: jobRunnerPhase(state.value),
    progress: state.context.progress,
    job: state.context.report as JobJson | null,
    error: state.context.error,
    run: () => send({ type: 'RUN' }),
    tryAgain: () => send({ type: 'TRY_AGAIN' }),
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
