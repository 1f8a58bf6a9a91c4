import { assign, fromPromise, setup } from 'xstate';

/**
 * The quote flow's navigation (spec section 4), headless so it is tested without a browser:
 * - the required and completed steps of each quote are kept in local storage (`StepStorage`);
 * - a step is reachable only when every earlier step is complete;
 * - steps after the review step are reachable only when the quote is Approved (or bound); an
 *   unreachable step shows the first page instead;
 * - submitting a page completes it and moves on; completing the last step marks it complete;
 * - a bound quote marks every step complete;
 * - a locked quote (meta.locked) or locked risk is read-only: page submission is skipped;
 * - while binding, the flag is re-synced from the server at most every 3 s.
 */
export const BIND_RESYNC_MS = 3000;

export interface StepRecord {
  required: string[];
  completed: string[];
}

export interface StepStorage {
  load(quoteNumber: string): StepRecord | null;
  save(quoteNumber: string, record: StepRecord): void;
}

/** Local browser storage, one key per quote. */
export const localStepStorage = (storage: Storage = globalThis.localStorage): StepStorage => ({
  load(quoteNumber) {
    try {
      const raw = storage.getItem(`quote-flow:${quoteNumber}`);
      if (!raw) return null;
      const value = JSON.parse(raw) as StepRecord;
      return Array.isArray(value.required) && Array.isArray(value.completed) ? value : null;
    } catch {
      return null;
    }
  },
  save(quoteNumber, record) {
    try {
      storage.setItem(`quote-flow:${quoteNumber}`, JSON.stringify(record));
    } catch {
      // Storage full or disabled: navigation still works for this visit.
    }
  },
});

/** In memory (tests, server rendering). */
export const memoryStepStorage = (): StepStorage & { data: Map<string, StepRecord> } => {
  const data = new Map<string, StepRecord>();
  return {
    data,
    load: (n) => (data.has(n) ? structuredClone(data.get(n)!) : null),
    save: (n, r) => void data.set(n, structuredClone(r)),
  };
};

export interface QuoteFacts {
  status: string;
  isBound: boolean;
  isBinding: boolean;
  locked: boolean;
}

export interface FlowInput {
  quoteNumber: string;
  /** Page names in flow order. */
  steps: string[];
  /** The review page (pages after it need an Approved quote); null when the flow has none. */
  reviewStep: string | null;
  quote: QuoteFacts;
  storage: StepStorage;
  /** The page the URL asks for. */
  initialStep?: string;
}

export interface FlowContext extends FlowInput {
  completed: string[];
  current: string;
  /** The last page submission's error message. */
  error: string | null;
}

export type FlowEvent =
  | { type: 'GO'; step: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'QUOTE.UPDATED'; quote: QuoteFacts }
  | { type: 'BIND.REQUESTED' };

/** Is `step` reachable with these completed steps and quote facts? */
export function isReachable(
  context: Pick<FlowContext, 'steps' | 'reviewStep' | 'completed' | 'quote'>,
  step: string,
): boolean {
  const index = context.steps.indexOf(step);
  if (index < 0) return false;
  if (context.steps.slice(0, index).some((s) => !context.completed.includes(s))) return false;
  const review = context.reviewStep === null ? -1 : context.steps.indexOf(context.reviewStep);
  if (review >= 0 && index > review && context.quote.status !== 'Approved' && !context.quote.isBound) return false;
  return true;
}

export const isReadOnly = (quote: QuoteFacts) => quote.locked || quote.isBound;

const withBound = (steps: string[], completed: string[], quote: QuoteFacts) =>
  quote.isBound ? [...steps] : completed.filter((s) => steps.includes(s));

function persist(context: FlowContext) {
  context.storage.save(context.quoteNumber, { required: context.steps, completed: context.completed });
}

export const quoteFlowMachine = setup({
  types: {
    context: {} as FlowContext,
    events: {} as FlowEvent,
    input: {} as FlowInput,
  },
  actors: {
    /** Saves the page (PUT risk with target_page_name); rejects with the server's message. */
    submitPage: fromPromise<void, { step: string; next: string | null }>(async () => {}),
    /** Reads the binding flag from the server. */
    fetchBinding: fromPromise<QuoteFacts, { quoteNumber: string }>(async () => {
      throw new Error('fetchBinding is not provided');
    }),
  },
  guards: {
    readOnly: ({ context }) => isReadOnly(context.quote),
    binding: ({ context }) => context.quote.isBinding && !context.quote.isBound,
  },
  actions: {
    persist: ({ context }) => persist(context),
  },
}).createMachine({
  id: 'quoteFlow',
  type: 'parallel',
  context: ({ input }) => {
    const stored = input.storage.load(input.quoteNumber);
    const completed = withBound(input.steps, stored?.completed ?? [], input.quote);
    const base: FlowContext = { ...input, completed, current: input.steps[0] ?? '', error: null };
    const wanted = input.initialStep ?? input.steps[0] ?? '';
    base.current = isReachable(base, wanted) ? wanted : (input.steps[0] ?? '');
    persist(base);
    return base;
  },
  states: {
    nav: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            GO: {
              actions: assign({
                current: ({ context, event }) => (isReachable(context, event.step) ? event.step : context.steps[0]!),
                error: null,
              }),
            },
            BACK: {
              actions: assign({
                current: ({ context }) => context.steps[Math.max(0, context.steps.indexOf(context.current) - 1)]!,
              }),
            },
            SUBMIT: [
              // Read-only: nothing is saved; move on only where the steps are already complete.
              {
                guard: 'readOnly',
                actions: assign({
                  current: ({ context }) => {
                    const next = context.steps[context.steps.indexOf(context.current) + 1];
                    return next && isReachable(context, next) ? next : context.current;
                  },
                }),
              },
              { target: 'submitting' },
            ],
          },
        },
        submitting: {
          invoke: {
            src: 'submitPage',
            input: ({ context }) => ({
              step: context.current,
              next: context.steps[context.steps.indexOf(context.current) + 1] ?? null,
            }),
            onDone: {
              target: 'ready',
              actions: [
                assign(({ context }) => {
                  const completed = context.completed.includes(context.current)
                    ? context.completed
                    : [...context.completed, context.current];
                  const after = { ...context, completed };
                  const next = context.steps[context.steps.indexOf(context.current) + 1];
                  return { completed, error: null, current: next && isReachable(after, next) ? next : context.current };
                }),
                'persist',
              ],
            },
            onError: {
              target: 'ready',
              actions: assign({
                error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
              }),
            },
          },
        },
      },
      on: {
        'QUOTE.UPDATED': {
          actions: [
            assign(({ context, event }) => {
              const completed = withBound(context.steps, context.completed, event.quote);
              const after = { ...context, quote: event.quote, completed };
              return {
                quote: event.quote,
                completed,
                current: isReachable(after, context.current) ? context.current : context.steps[0]!,
              };
            }),
            'persist',
          ],
        },
      },
    },
    binding: {
      initial: 'check',
      states: {
        check: { always: [{ guard: 'binding', target: 'waiting' }, { target: 'idle' }] },
        idle: {
          on: {
            'BIND.REQUESTED': {
              target: 'waiting',
              actions: assign({ quote: ({ context }) => ({ ...context.quote, isBinding: true }) }),
            },
            'QUOTE.UPDATED': { target: 'check' },
          },
        },
        // At most one fetch every BIND_RESYNC_MS while binding.
        waiting: { after: { [BIND_RESYNC_MS]: 'fetching' } },
        fetching: {
          invoke: {
            src: 'fetchBinding',
            input: ({ context }) => ({ quoteNumber: context.quoteNumber }),
            onDone: {
              target: 'check',
              actions: [
                assign(({ context, event }) => {
                  const completed = withBound(context.steps, context.completed, event.output);
                  return { quote: event.output, completed };
                }),
                'persist',
              ],
            },
            onError: { target: 'waiting' },
          },
        },
      },
    },
  },
});
