import pino from 'pino';

/**
 * Where the server's log lines go (standard output in production). Every request writes one line;
 * writing each on its own costs a system call per request, which profiling showed to be the largest
 * single cost of a small authenticated request. So the lines of one turn of the event loop are
 * joined and handed to pino's asynchronous destination once, at the end of the turn: at low traffic
 * a line still leaves at once, under load one write carries the lines of many requests. Lines still
 * waiting when the process exits are handed over first, and pino's destination writes everything
 * synchronously at exit.
 */
const destinations = new Map<number | string, pino.DestinationStream>();
const flushes: (() => void)[] = [];

/** One per target, shared by every app of the process (tests build many). */
export function turnBatchedLogDestination(dest: number | string = 1): pino.DestinationStream {
  let made = destinations.get(dest);
  if (made) return made;
  const destination = pino.destination({ dest, sync: false });
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const lines = pending;
    pending = '';
    destination.write(lines);
  };
  // Before pino's own exit handler (registered when the destination was made), which flushes it.
  if (flushes.length === 0) process.prependListener('exit', () => flushes.forEach((f) => f()));
  flushes.push(flush);
  made = {
    write(line: string) {
      if (pending === '') setImmediate(flush);
      pending += line;
    },
  };
  destinations.set(dest, made);
  return made;
}
