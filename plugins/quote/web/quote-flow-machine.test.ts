import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import {
  BIND_RESYNC_MS,
  memoryStepStorage,
  quoteFlowMachine,
  type FlowInput,
  type QuoteFacts,
} from './quote-flow-machine.js';

const STEPS = ['home', 'articles', 'review', 'billing', 'bind'];
const facts = (over: Partial<QuoteFacts> = {}): QuoteFacts => ({
  status: 'In Progress',
  isBound: false,
  isBinding: false,
  locked: false,
  ...over,
});

function start(
  over: Partial<FlowInput> = {},
  options: { fetch?: () => Promise<QuoteFacts>; submit?: () => Promise<void> } = {},
) {
  const clock = new SimulatedClock();
  const saved: string[] = [];
  const machine = quoteFlowMachine.provide({
    actors: {
      submitPage: fromPromise(async ({ input }: { input: { step: string; next: string | null } }) => {
        saved.push(input.step);
        await options.submit?.();
      }),
      fetchBinding: fromPromise(async () => (options.fetch ? options.fetch() : facts())),
    },
  });
  const storage = over.storage ?? memoryStepStorage();
  const actor = createActor(machine, {
    clock,
    input: { quoteNumber: 'Q-1', steps: STEPS, reviewStep: 'review', quote: facts(), storage, ...over },
  });
  actor.start();
  return { actor, clock, saved, storage };
}

const settle = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches({ nav: 'ready' }));

describe('quote flow machine', () => {
  it('keeps required and completed steps per quote in storage, and reads them back', async () => {
    const { actor, storage } = start();
    actor.send({ type: 'SUBMIT' });
    await settle(actor);
    expect(storage.load('Q-1')).toEqual({ required: STEPS, completed: ['home'] });
    expect(storage.load('Q-2')).toBeNull();
    const again = start({ storage, initialStep: 'articles' });
    expect(again.actor.getSnapshot().context.current).toBe('articles');
  });

  it('reaches a step only when every earlier step is complete, else shows the first page', async () => {
    const { actor } = start();
    actor.send({ type: 'GO', step: 'articles' });
    expect(actor.getSnapshot().context.current).toBe('home');
    actor.send({ type: 'SUBMIT' });
    await settle(actor);
    expect(actor.getSnapshot().context.current).toBe('articles');
    actor.send({ type: 'GO', step: 'home' });
    actor.send({ type: 'GO', step: 'articles' });
    expect(actor.getSnapshot().context.current).toBe('articles');
    // An initial step that is not reachable opens the first page.
    expect(start({ initialStep: 'review' }).actor.getSnapshot().context.current).toBe('home');
  });

  it('opens steps after the review step only when the quote is Approved', async () => {
    const storage = memoryStepStorage();
    storage.save('Q-1', { required: STEPS, completed: ['home', 'articles', 'review'] });
    const { actor } = start({ storage, initialStep: 'billing' });
    expect(actor.getSnapshot().context.current).toBe('home');
    actor.send({ type: 'QUOTE.UPDATED', quote: facts({ status: 'Approved' }) });
    actor.send({ type: 'GO', step: 'billing' });
    expect(actor.getSnapshot().context.current).toBe('billing');
    // Back to In Progress (an edit after approval): the page after review falls back to the first.
    actor.send({ type: 'QUOTE.UPDATED', quote: facts({ status: 'In Progress' }) });
    expect(actor.getSnapshot().context.current).toBe('home');
  });

  it('completing the last step marks it complete', async () => {
    const storage = memoryStepStorage();
    storage.save('Q-1', { required: STEPS, completed: ['home', 'articles', 'review', 'billing'] });
    const { actor } = start({ storage, initialStep: 'bind', quote: facts({ status: 'Approved' }) });
    expect(actor.getSnapshot().context.current).toBe('bind');
    actor.send({ type: 'SUBMIT' });
    await settle(actor);
    expect(actor.getSnapshot().context.completed).toEqual(STEPS);
    expect(actor.getSnapshot().context.current).toBe('bind');
  });

  it('a bound quote marks every step complete', () => {
    const { actor, storage } = start({ quote: facts({ status: 'Approved', isBound: true }), initialStep: 'bind' });
    expect(actor.getSnapshot().context.completed).toEqual(STEPS);
    expect(actor.getSnapshot().context.current).toBe('bind');
    expect(storage.load('Q-1')?.completed).toEqual(STEPS);
  });

  it('skips page submission on a locked quote (read-only)', async () => {
    const storage = memoryStepStorage();
    storage.save('Q-1', { required: STEPS, completed: ['home'] });
    const { actor, saved } = start({ storage, quote: facts({ locked: true }) });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().matches({ nav: 'ready' })).toBe(true);
    expect(saved).toEqual([]);
    expect(actor.getSnapshot().context.current).toBe('articles');
    // The next step is not complete: a read-only submit stays.
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.current).toBe('articles');
    expect(saved).toEqual([]);
  });

  it('keeps the page when the server refuses it, with its message', async () => {
    const { actor } = start({}, { submit: () => Promise.reject(new Error('Roof year is required.')) });
    actor.send({ type: 'SUBMIT' });
    await settle(actor);
    expect(actor.getSnapshot().context.current).toBe('home');
    expect(actor.getSnapshot().context.error).toBe('Roof year is required.');
    expect(actor.getSnapshot().context.completed).toEqual([]);
  });

  it('re-syncs the binding flag from the server at most every 3 seconds', async () => {
    let calls = 0;
    let bound = false;
    const { actor, clock } = start(
      { quote: facts({ status: 'Approved' }) },
      {
        fetch: async () => {
          calls += 1;
          return facts({ status: 'Approved', isBinding: !bound, isBound: bound, locked: bound });
        },
      },
    );
    actor.send({ type: 'BIND.REQUESTED' });
    clock.increment(BIND_RESYNC_MS - 1);
    expect(calls).toBe(0);
    clock.increment(1);
    await waitFor(actor, (s) => s.matches({ binding: 'waiting' }));
    expect(calls).toBe(1);
    // Asking again within the window does not fetch.
    actor.send({ type: 'BIND.REQUESTED' });
    clock.increment(BIND_RESYNC_MS / 2);
    expect(calls).toBe(1);
    bound = true;
    clock.increment(BIND_RESYNC_MS / 2);
    await waitFor(actor, (s) => s.matches({ binding: 'idle' }));
    expect(calls).toBe(2);
    expect(actor.getSnapshot().context.quote.isBound).toBe(true);
    expect(actor.getSnapshot().context.completed).toEqual(STEPS);
    clock.increment(BIND_RESYNC_MS * 3);
    expect(calls).toBe(2);
  });
});
