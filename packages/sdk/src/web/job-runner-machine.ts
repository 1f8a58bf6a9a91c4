import { assign, fromPromise, setup } from 'xstate';
import { onCheck } from './on-check.js';

/**
 * The spec's job runner ("States and transitions"): ready → running → finished | cancelled |
 * serviceError | timeoutError. `RUN` starts the job call, then polls its status every
 * `pollInterval` ms; the job is finished when its status is neither IN_PROGRESS nor NEW. Staying in
 * running longer than `timeout` ms is a timeout error. Any failed call is a service error. Leaving
 * running stops polling (XState cancels the pending delay and the in-flight call). `TRY_AGAIN`
 * resumes polling the same job (or restarts it when the start call itself failed); `CANCEL` halts.
 */

export const JOB_POLL_INTERVAL_MS = 3000;
export const JOB_TIMEOUT_MS = 900_000;
export const JOB_PENDING_STATUSES: readonly string[] = ['IN_PROGRESS', 'NEW'];

export interface JobStatusReport {
  status: string;
  /** '0.00'–'100.00' (or a number); exposed as `progress` 0–100. */
  progress?: string | number | null;
  [key: string]: unknown;
}

export interface JobRunnerInput {
  /** Starts the job; its answer is passed to every `check`. */
  start(): Promise<JobStatusReport>;
  /** Fetches the current status; must return a Promise (see onCheck). */
  check(job: JobStatusReport): Promise<JobStatusReport>;
  pollInterval?: number;
  timeout?: number;
}

export interface JobRunnerContext {
  start: () => Promise<JobStatusReport>;
  check: (job: JobStatusReport) => Promise<JobStatusReport>;
  pollInterval: number;
  timeout: number;
  /** The start call's answer; null until the job started. */
  job: JobStatusReport | null;
  /** The latest status report. */
  report: JobStatusReport | null;
  status: string | null;
  progress: number;
  error: string | null;
}

export type JobRunnerEvent = { type: 'RUN' } | { type: 'CANCEL' } | { type: 'TRY_AGAIN' };

export function isJobFinished(status: string | null | undefined): boolean {
  return typeof status === 'string' && !JOB_PENDING_STATUSES.includes(status);
}

/** '12.50' → 12.5, clamped to 0–100; anything unreadable keeps `fallback`. */
export function parseJobProgress(value: unknown, fallback = 0): number {
  if (value === null || value === undefined || value === '') return fallback;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return fallback;
  return Math.min(100, Math.max(0, number));
}

const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Service error';

const fresh = {
  job: null,
  report: null,
  status: null,
  progress: 0,
  error: null,
} satisfies Partial<JobRunnerContext>;

/**
 * Builds the job runner machine. A factory rather than a module constant: a `setup().createMachine()`
 * call at import time is a side effect no bundler may drop, so every page that imported anything
 * from the SDK carried XState in its first load. Now only code that runs a job pays for it.
 */
export function createJobRunnerMachine() {
  return setup({
    types: {
      context: {} as JobRunnerContext,
      events: {} as JobRunnerEvent,
      input: {} as JobRunnerInput,
    },
    actors: {
      startJob: fromPromise<JobStatusReport, { start: () => Promise<JobStatusReport> }>(({ input }) => input.start()),
      checkJob: fromPromise<
        JobStatusReport,
        { check: (job: JobStatusReport) => Promise<JobStatusReport>; job: JobStatusReport }
      >(({ input }) => input.check(input.job)),
    },
    delays: {
      pollInterval: ({ context }) => context.pollInterval,
      timeout: ({ context }) => context.timeout,
    },
    guards: {
      reportFinished: (_, report: JobStatusReport) => isJobFinished(report?.status),
      hasJob: ({ context }) => context.job !== null,
    },
    actions: {
      recordReport: assign(({ context }, report: JobStatusReport) => {
        const status = report?.status ?? null;
        // A finished job that reports no progress is complete as far as the bar is concerned.
        const progress =
          isJobFinished(status) && (report?.progress === undefined || report?.progress === null)
            ? 100
            : parseJobProgress(report?.progress, context.progress);
        return { report, status, progress };
      }),
      clearError: assign({ error: null }),
      reset: assign(fresh),
    },
  }).createMachine({
    id: 'jobRunner',
    initial: 'ready',
    context: ({ input }) => ({
      start: input.start,
      check: onCheck(input.check),
      pollInterval: input.pollInterval ?? JOB_POLL_INTERVAL_MS,
      timeout: input.timeout ?? JOB_TIMEOUT_MS,
      ...fresh,
    }),
    states: {
      ready: {
        on: { RUN: 'running' },
      },
      running: {
        initial: 'starting',
        entry: 'clearError',
        // Re-armed on every entry, so TRY_AGAIN after a timeout gets a full new period.
        after: { timeout: { target: 'timeoutError' } },
        on: { CANCEL: 'cancelled' },
        states: {
          starting: {
            invoke: {
              src: 'startJob',
              input: ({ context }) => ({ start: context.start }),
              onDone: [
                {
                  guard: { type: 'reportFinished', params: ({ event }) => event.output },
                  target: '#jobRunner.finished',
                  actions: [
                    assign(({ event }) => ({ job: event.output })),
                    { type: 'recordReport', params: ({ event }) => event.output },
                  ],
                },
                {
                  target: 'waiting',
                  actions: [
                    assign(({ event }) => ({ job: event.output })),
                    { type: 'recordReport', params: ({ event }) => event.output },
                  ],
                },
              ],
              onError: {
                target: '#jobRunner.serviceError',
                actions: assign({ error: ({ event }) => errorMessage(event.error) }),
              },
            },
          },
          waiting: {
            after: { pollInterval: 'checking' },
          },
          checking: {
            invoke: {
              src: 'checkJob',
              input: ({ context }) => ({ check: context.check, job: context.job! }),
              onDone: [
                {
                  guard: { type: 'reportFinished', params: ({ event }) => event.output },
                  target: '#jobRunner.finished',
                  actions: { type: 'recordReport', params: ({ event }) => event.output },
                },
                {
                  target: 'waiting',
                  actions: { type: 'recordReport', params: ({ event }) => event.output },
                },
              ],
              onError: {
                target: '#jobRunner.serviceError',
                actions: assign({ error: ({ event }) => errorMessage(event.error) }),
              },
            },
          },
        },
      },
      finished: {
        on: { RUN: { target: 'running', actions: 'reset' } },
      },
      cancelled: {
        on: { RUN: { target: 'running', actions: 'reset' } },
      },
      serviceError: {
        on: {
          TRY_AGAIN: [{ guard: 'hasJob', target: 'running.checking' }, { target: 'running' }],
          CANCEL: 'cancelled',
        },
      },
      timeoutError: {
        on: {
          TRY_AGAIN: [{ guard: 'hasJob', target: 'running.checking' }, { target: 'running' }],
          CANCEL: 'cancelled',
        },
      },
    },
  });
}

export type JobRunnerMachine = ReturnType<typeof createJobRunnerMachine>;

/** Top-level state name for UIs: 'ready' | 'running' | 'finished' | 'cancelled' | 'serviceError' | 'timeoutError'. */
export type JobRunnerPhase = 'ready' | 'running' | 'finished' | 'cancelled' | 'serviceError' | 'timeoutError';

export function jobRunnerPhase(value: unknown): JobRunnerPhase {
  return (typeof value === 'string' ? value : Object.keys(value as object)[0]) as JobRunnerPhase;
}
