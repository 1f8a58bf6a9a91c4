/**
 * Asks the access service whether the effective role may do something, for the UI's sake (the
 * server checks every call again). Answers are cached per effective role: switching roles starts
 * from a clean slate, switching back reuses what was learned. Questions asked in the same tick are
 * sent as one POST /api/access/evaluations.
 */
export interface EvaluationQuestion {
  resource: string;
  action: string;
  record?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

export interface AccessClientOptions {
  fetch?: typeof fetch;
  /** Headers of the current caller: bearer token and effective-role header. */
  headers(): Record<string, string>;
  /** The cache partition; usually the effective role (null before one is chosen). */
  cacheKey(): string | null;
}

export interface AccessClient {
  evaluate(question: EvaluationQuestion): Promise<boolean>;
  /** ViewModule on `ui:<module>`: whether the module shows in navigation and its pages open. */
  canViewModule(moduleKey: string): Promise<boolean>;
  /** Forgets every cached answer (sign-out, policy changes). */
  clear(): void;
}

export const EVALUATIONS_PATH = '/api/access/evaluations';

interface Pending {
  question: EvaluationQuestion;
  resolve(allowed: boolean): void;
  reject(error: unknown): void;
}

/** The access service answers `{ results: [{ evaluation }] }`; evaluation may be a flag or `{ allowed }`. */
function readEvaluation(result: unknown): boolean {
  const evaluation = (result as { evaluation?: unknown } | null)?.evaluation;
  if (typeof evaluation === 'boolean') return evaluation;
  if (
    evaluation &&
    typeof evaluation === 'object' &&
    typeof (evaluation as { allowed?: unknown }).allowed === 'boolean'
  ) {
    return (evaluation as { allowed: boolean }).allowed;
  }
  throw new Error('Malformed evaluation result.');
}

function questionKey(question: EvaluationQuestion): string {
  return JSON.stringify([question.resource, question.action, question.record ?? null, question.context ?? null]);
}

export function createAccessClient(options: AccessClientOptions): AccessClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const cache = new Map<string, Map<string, Promise<boolean>>>();
  let queue: Pending[] = [];
  let flushScheduled = false;

  async function flush(batch: Pending[]) {
    try {
      const response = await doFetch(EVALUATIONS_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers() },
        body: JSON.stringify({ requests: batch.map((p) => p.question) }),
      });
      if (!response.ok) throw new Error(`Access evaluation failed with HTTP ${response.status}.`);
      const body = (await response.json()) as { results?: unknown[] };
      const results = body.results ?? [];
      if (results.length !== batch.length) throw new Error('Access evaluation answered a different number of results.');
      batch.forEach((pending, index) => pending.resolve(readEvaluation(results[index])));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }

  function enqueue(question: EvaluationQuestion): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      queue.push({ question, resolve, reject });
      if (flushScheduled) return;
      flushScheduled = true;
      queueMicrotask(() => {
        flushScheduled = false;
        const batch = queue;
        queue = [];
        void flush(batch);
      });
    });
  }

  function evaluate(question: EvaluationQuestion): Promise<boolean> {
    const partition = options.cacheKey() ?? '';
    let answers = cache.get(partition);
    if (!answers) cache.set(partition, (answers = new Map()));
    const key = questionKey(question);
    const cached = answers.get(key);
    if (cached) return cached;
    const answer = enqueue(question);
    answers.set(key, answer);
    // A failure is not an answer: the next question asks again.
    answer.catch(() => {
      if (answers.get(key) === answer) answers.delete(key);
    });
    return answer;
  }

  return {
    evaluate,
    canViewModule: (moduleKey) => evaluate({ resource: `ui:${moduleKey}`, action: 'ViewModule' }),
    clear: () => cache.clear(),
  };
}
