import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MAPPING_DEADLINE_MS, MappingError, type EvaluateOptions } from './jsonata-runtime.mjs';

/**
 * Worker threads that evaluate JSONata mappings (node:worker_threads, no library): a mapping is user
 * code, so it runs off the server's event loop. Inside the worker the evaluator's hooks enforce the
 * deadline and depth limit; a mapping stuck where no hook runs (one built-in call that never ends,
 * a catastrophic regular expression) is stopped from here by terminating its worker a moment after
 * the deadline, and a fresh worker takes its place. Each worker has a memory cap, so a mapping that
 * builds something huge fails on its own instead of taking the server with it.
 */
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
/** How long after the deadline a worker whose hooks did not stop the mapping is terminated. */
const GRACE_MS = 500;
/**
 * A new worker first loads its module and JSONata: seconds on a loaded machine (CI's e2e saw a
 * cold worker's first preview stopped as "took longer than 1000 ms"). That start is ours, not the
 * mapping's, so a fresh worker's first task gets this much more before the hard stop; the worker's
 * own deadline check still times the evaluation alone.
 */
const WORKER_START_MS = 10_000;
/** Mappings waiting for a worker beyond this are refused (the server is overloaded). */
const MAX_WAITING = 1000;
const WORKER_URL = new URL('./mapping-worker.mjs', import.meta.url);

interface Task {
  id: number;
  expression: string;
  input: unknown;
  options: EvaluateOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** No task has run on it yet (its module may still be loading). */
  fresh: boolean;
}

type Answer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; mappingError: boolean; message: string; position?: number };

class MappingPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private nextId = 1;

  evaluate(expression: string, input: unknown, options: EvaluateOptions = {}): Promise<unknown> {
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(new MappingError('Too many mappings are waiting to run; try again shortly.'));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, expression, input, options, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < POOL_SIZE) slot = this.spawn();
      if (!slot) return;
      this.dispatch(slot, this.waiting.shift()!);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: 128 } });
    // An idle worker does not keep the process alive (tests, `atrium migrate`).
    worker.unref();
    const slot: Slot = { worker, task: null, timer: null, fresh: true };
    worker.on('message', (answer: Answer) => {
      const task = slot.task;
      if (!task || task.id !== answer.id) return;
      this.finish(slot);
      if (answer.ok) task.resolve(answer.result);
      else if (answer.mappingError) task.reject(new MappingError(answer.message, answer.position));
      else task.reject(new MappingError(`The mapping failed: ${answer.message}`));
      this.pump();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.lose(
        slot,
        outOfMemory
          ? 'The mapping used more memory than allowed and was stopped.'
          : `The mapping failed: ${error.message}`,
      );
    });
    worker.on('exit', () => this.lose(slot, 'The mapping stopped unexpectedly.'));
    this.slots.push(slot);
    return slot;
  }

  private dispatch(slot: Slot, task: Task): void {
    slot.task = task;
    slot.worker.ref();
    const deadlineMs = task.options.deadlineMs ?? MAPPING_DEADLINE_MS;
    slot.timer = setTimeout(
      () => {
        this.lose(slot, `The mapping took longer than ${deadlineMs} ms and was stopped.`);
      },
      deadlineMs + GRACE_MS + (slot.fresh ? WORKER_START_MS : 0),
    );
    slot.fresh = false;
    try {
      slot.worker.postMessage({ id: task.id, expression: task.expression, input: task.input, options: task.options });
    } catch (error) {
      // An input that cannot be copied to the thread (a function, a symbol) never comes from JSON.
      this.finish(slot);
      task.reject(new MappingError(`The mapping's input cannot be evaluated: ${(error as Error).message}`));
      this.pump();
    }
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    slot.worker.unref();
  }

  /** A worker stopped or is stopped: its mapping fails with `reason`, and it leaves the pool. */
  private lose(slot: Slot, reason: string): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const task = slot.task;
    this.finish(slot);
    void slot.worker.terminate();
    task?.reject(new MappingError(reason));
    this.pump();
  }
}

/** One pool per process, made on first use. */
let pool: MappingPool | null = null;
export function mappingPool(): MappingPool {
  pool ??= new MappingPool();
  return pool;
}
