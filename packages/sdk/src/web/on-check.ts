/**
 * The job runner's status check must be asynchronous; a synchronous function would poll in a tight
 * loop of resolved values and hide mistakes. The spec's error text is kept word for word.
 */
export const ON_CHECK_NOT_PROMISE_MESSAGE = "The function 'fn' set in onCheck(fn) should return a Promise";

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** Wraps `fn` so that a call which does not return a Promise throws the spec's error. */
export function onCheck<Args extends unknown[], R>(fn: (...args: Args) => Promise<R>): (...args: Args) => Promise<R> {
  if (typeof fn !== 'function') throw new TypeError(ON_CHECK_NOT_PROMISE_MESSAGE);
  return (...args: Args) => {
    const result: unknown = fn(...args);
    if (!isPromiseLike(result)) throw new TypeError(ON_CHECK_NOT_PROMISE_MESSAGE);
    return result as Promise<R>;
  };
}
