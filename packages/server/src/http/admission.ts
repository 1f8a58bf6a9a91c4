import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Admission control for the plugins' API routes: at most `limit` handlers run at once, the others
 * wait in arrival order before their first statement.
 *
 * Why: every request runs several statements, and each statement waits for one of the pool's few
 * connections. Without a gate, 200 concurrent requests interleave statement by statement in the
 * pool's queue, so under overload every request is slow and some very slow (the tail is set by how
 * often a request loses the race for a connection, seven times over). With the gate, a request that
 * starts finishes at the speed of a lightly loaded server and the wait is one FIFO queue: the same
 * mean, a far shorter tail. A request whose client went away while it waited is dropped before it
 * costs the database anything.
 *
 * The limit is a multiple of the pool size (a request runs up to a handful of statements at once).
 * A request takes its slot once its body has been read (preHandler: a slow upload holds no slot) and
 * gives it back as soon as its handler has answered (onSend: a slow download holds none either).
 * Routes that must answer under load (health, the direct upload) are not registered by plugins and
 * stay outside; a plugin route can opt out with `config.admission: false`.
 */
export interface Admission {
  /** Requests running now. */
  readonly active: number;
  /** Requests waiting for a slot. */
  readonly waiting: number;
  /** Puts the routes of `scope` behind the gate (one gate for every scope it is applied to). */
  apply(scope: FastifyInstance): void;
}

const HELD = Symbol('atrium.admission.held');
type Held = FastifyRequest & { [HELD]?: boolean };

export function createAdmission(limit: number): Admission {
  let active = 0;
  const queue: (() => void)[] = [];

  const release = (request: Held) => {
    if (!request[HELD]) return;
    request[HELD] = false;
    const next = queue.shift();
    if (next)
      next(); // the slot passes straight to the next in line: `active` is unchanged
    else active--;
  };

  // Callback-style hooks: a request that finds a free slot (nearly all of them) costs no promise.
  const admit = (request: Held, reply: FastifyReply, done: (error?: Error) => void) => {
    if ((request.routeOptions.config as { admission?: boolean } | undefined)?.admission === false) return done();
    if (active < limit) {
      active++;
      request[HELD] = true;
      return done();
    }
    queue.push(() => {
      request[HELD] = true;
      if (request.raw.socket?.destroyed) {
        // Gone while waiting: nobody reads the answer, so none is computed.
        release(request);
        reply.hijack();
      }
      done();
    });
  };

  return {
    apply(scope) {
      scope.addHook('preHandler', admit);
      scope.addHook('onSend', (request: Held, _reply, payload, done) => {
        release(request);
        done(null, payload);
      });
      scope.addHook('onResponse', (request: Held, _reply, done) => {
        release(request);
        done();
      });
      scope.addHook('onRequestAbort', (request: Held, done) => {
        release(request);
        done();
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
