import { useMachine } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { createJobRunnerMachine, jobRunnerPhase, useApiClient, type JobStatusReport } from '@atrium/sdk';
import type { JobJson } from '../../shared/api-types.js';

/**
 * A validate or test job of one effective date, run by the SDK's job runner machine: start
 * (`POST …/build/validate/` or `…/build/async-test/`, 202 with the job), then poll
 * `GET rules/job/{id}/` every 3 s until it is neither NEW nor IN_PROGRESS.
 */
export function useBuildJob(kind: 'validate' | 'test', projectId: string, effectiveDateId: number | null) {
  const api = useApiClient();
  const dateRef = useRef(effectiveDateId);
  dateRef.current = effectiveDateId;
  const machine = useMemo(() => createJobRunnerMachine(), []);
  const [state, send] = useMachine(machine, {
    input: {
      start: () =>
        api.post<JobStatusReport>(
          `/rules/projects/${projectId}/build/${kind === 'validate' ? 'validate' : 'async-test'}/`,
          dateRef.current === null ? {} : { effective_date_id: dateRef.current },
        ),
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
