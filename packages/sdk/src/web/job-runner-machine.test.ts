import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, startMachine } from '../testing/machine-harness.js';
import {
  isJobFinished,
  JOB_POLL_INTERVAL_MS,
  JOB_TIMEOUT_MS,
  createJobRunnerMachine,
  jobRunnerPhase,
  parseJobProgress,
  type JobStatusReport,
} from './job-runner-machine.js';
import { ON_CHECK_NOT_PROMISE_MESSAGE, onCheck } from './on-check.js';

/** A job API whose status answers are scripted per check. */
function scriptedJob(
  statuses: (JobStatusReport | Error)[],
  started: JobStatusReport = { id: 'job-1', status: 'NEW', progress: '0.00' },
) {
  const start = vi.fn(async () => started);
  const check = vi.fn(async (job: JobStatusReport) => {
    expect(job).toBe(started);
    const next = statuses.shift() ?? { status: 'IN_PROGRESS' };
    if (next instanceof Error) throw next;
    return next;
  });
  return { start, check };
}

describe('job runner machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits in ready until RUN', async () => {
    const job = scriptedJob([]);
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    await runner.advance(10_000);
    expect(runner.state()).toBe('ready');
    expect(job.start).not.toHaveBeenCalled();
  });

  it('starts the job, then polls every 3000 ms until the status is neither IN_PROGRESS nor NEW', async () => {
    const job = scriptedJob([
      { status: 'NEW', progress: '0.00' },
      { status: 'IN_PROGRESS', progress: '42.50' },
      { status: 'COMPLETED', progress: '100.00', result: 'done' },
    ]);
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.flush();
    expect(job.start).toHaveBeenCalledTimes(1);
    expect(runner.state()).toBe('running.waiting');

    await runner.advance(JOB_POLL_INTERVAL_MS - 1);
    expect(job.check).not.toHaveBeenCalled();
    await runner.advance(1);
    expect(job.check).toHaveBeenCalledTimes(1);

    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(job.check).toHaveBeenCalledTimes(2);
    expect(runner.snapshot().context.progress).toBe(42.5);
    expect(runner.snapshot().context.status).toBe('IN_PROGRESS');

    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(runner.state()).toBe('finished');
    expect(runner.snapshot().context).toMatchObject({ status: 'COMPLETED', progress: 100, report: { result: 'done' } });

    // Polling stopped.
    await runner.advance(JOB_POLL_INTERVAL_MS * 5);
    expect(job.check).toHaveBeenCalledTimes(3);
    expect(runner.history).toEqual([
      'ready',
      'running.starting',
      'running.waiting',
      'running.checking',
      'running.waiting',
      'running.checking',
      'running.waiting',
      'running.checking',
      'finished',
    ]);
  });

  it('treats any status other than IN_PROGRESS and NEW as finished, failures included', async () => {
    const job = scriptedJob([{ status: 'FAILED', progress: '12.00' }]);
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(runner.state()).toBe('finished');
    expect(runner.snapshot().context).toMatchObject({ status: 'FAILED', progress: 12 });
  });

  it('finishes without polling when the start call already reports a final status', async () => {
    const job = scriptedJob([], { id: 'j', status: 'DONE' });
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.flush();
    expect(runner.state()).toBe('finished');
    expect(runner.snapshot().context.progress).toBe(100);
    expect(job.check).not.toHaveBeenCalled();
  });

  it('goes to serviceError when a status call fails and stops polling; TRY_AGAIN resumes the same job', async () => {
    const job = scriptedJob([
      { status: 'IN_PROGRESS', progress: '10' },
      new Error('Service unavailable'),
      { status: 'COMPLETED' },
    ]);
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_POLL_INTERVAL_MS * 2);
    expect(runner.state()).toBe('serviceError');
    expect(runner.snapshot().context.error).toBe('Service unavailable');
    expect(runner.snapshot().context.progress).toBe(10);

    await runner.advance(JOB_POLL_INTERVAL_MS * 10);
    expect(job.check).toHaveBeenCalledTimes(2);

    runner.send({ type: 'TRY_AGAIN' });
    await runner.flush();
    expect(job.start).toHaveBeenCalledTimes(1);
    expect(job.check).toHaveBeenCalledTimes(3);
    expect(runner.state()).toBe('finished');
    expect(runner.snapshot().context.error).toBeNull();
  });

  it('restarts the job on TRY_AGAIN when the start call itself failed', async () => {
    const start = vi
      .fn()
      .mockRejectedValueOnce(new Error('Internal Server Error.'))
      .mockResolvedValue({ id: 'j', status: 'NEW' });
    const runner = startMachine(createJobRunnerMachine(), {
      input: { start, check: async () => ({ status: 'DONE' }) },
    });
    runner.send({ type: 'RUN' });
    await runner.flush();
    expect(runner.state()).toBe('serviceError');
    runner.send({ type: 'TRY_AGAIN' });
    await runner.flush();
    expect(start).toHaveBeenCalledTimes(2);
    expect(runner.state()).toBe('running.waiting');
  });

  it('times out after 900000 ms in running, and TRY_AGAIN resumes polling with a fresh period', async () => {
    const job = scriptedJob(Array.from({ length: 1000 }, () => ({ status: 'IN_PROGRESS' })));
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_TIMEOUT_MS - 1);
    expect(runner.state()).toMatch(/^running/);
    await runner.advance(1);
    expect(runner.state()).toBe('timeoutError');
    const checks = job.check.mock.calls.length;
    expect(checks).toBe(Math.floor((JOB_TIMEOUT_MS - 1) / JOB_POLL_INTERVAL_MS));
    await runner.advance(JOB_POLL_INTERVAL_MS * 3);
    expect(job.check).toHaveBeenCalledTimes(checks);

    runner.send({ type: 'TRY_AGAIN' });
    await runner.advance(JOB_TIMEOUT_MS - 1);
    expect(runner.state()).toMatch(/^running/);
    await runner.advance(1);
    expect(runner.state()).toBe('timeoutError');
  });

  it('CANCEL halts: no more calls, and a late answer is ignored', async () => {
    const answer = deferred<JobStatusReport>();
    const check = vi.fn(() => answer.promise);
    const runner = startMachine(createJobRunnerMachine(), {
      input: { start: async () => ({ id: 'j', status: 'NEW' }), check },
    });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(runner.state()).toBe('running.checking');
    runner.send({ type: 'CANCEL' });
    answer.resolve({ status: 'COMPLETED' });
    await runner.advance(JOB_POLL_INTERVAL_MS * 3);
    expect(runner.state()).toBe('cancelled');
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('honours custom interval and timeout', async () => {
    const job = scriptedJob([{ status: 'IN_PROGRESS' }, { status: 'IN_PROGRESS' }]);
    const runner = startMachine(createJobRunnerMachine(), { input: { ...job, pollInterval: 100, timeout: 250 } });
    runner.send({ type: 'RUN' });
    await runner.advance(200);
    expect(job.check).toHaveBeenCalledTimes(2);
    await runner.advance(50);
    expect(runner.state()).toBe('timeoutError');
  });

  it("fails with the spec's message when the check function does not return a Promise", async () => {
    const runner = startMachine(createJobRunnerMachine(), {
      input: { start: async () => ({ id: 'j', status: 'NEW' }), check: (() => ({ status: 'DONE' })) as never },
    });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(runner.state()).toBe('serviceError');
    expect(runner.snapshot().context.error).toBe("The function 'fn' set in onCheck(fn) should return a Promise");
  });

  it('RUN from finished or cancelled starts over with a fresh context', async () => {
    const job = scriptedJob([{ status: 'COMPLETED', progress: '100' }]);
    const runner = startMachine(createJobRunnerMachine(), { input: job });
    runner.send({ type: 'RUN' });
    await runner.advance(JOB_POLL_INTERVAL_MS);
    expect(runner.state()).toBe('finished');
    runner.send({ type: 'RUN' });
    await runner.flush();
    expect(job.start).toHaveBeenCalledTimes(2);
    expect(runner.snapshot().context.progress).toBe(0);
    expect(jobRunnerPhase(runner.snapshot().value)).toBe('running');
  });
});

describe('job helpers', () => {
  it('onCheck throws the spec message for a function that does not return a Promise', () => {
    expect(ON_CHECK_NOT_PROMISE_MESSAGE).toBe("The function 'fn' set in onCheck(fn) should return a Promise");
    const wrapped = onCheck((() => 42) as never);
    expect(() => wrapped()).toThrow(ON_CHECK_NOT_PROMISE_MESSAGE);
    expect(() => onCheck(undefined as never)).toThrow(ON_CHECK_NOT_PROMISE_MESSAGE);
  });

  it('onCheck passes arguments and the Promise through', async () => {
    const wrapped = onCheck(async (a: number, b: number) => a + b);
    await expect(wrapped(2, 3)).resolves.toBe(5);
  });

  it('parses progress strings into 0–100', () => {
    expect(parseJobProgress('0.00')).toBe(0);
    expect(parseJobProgress('42.50')).toBe(42.5);
    expect(parseJobProgress(150)).toBe(100);
    expect(parseJobProgress('-3')).toBe(0);
    expect(parseJobProgress('n/a', 17)).toBe(17);
    expect(parseJobProgress(null, 5)).toBe(5);
  });

  it('knows which statuses are still pending', () => {
    expect(isJobFinished('NEW')).toBe(false);
    expect(isJobFinished('IN_PROGRESS')).toBe(false);
    expect(isJobFinished('COMPLETED')).toBe(true);
    expect(isJobFinished('ERROR')).toBe(true);
    expect(isJobFinished(undefined)).toBe(false);
  });
});
