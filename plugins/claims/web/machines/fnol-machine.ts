import { assign, fromPromise, setup } from 'xstate';
import {
  emptyDraft,
  FNOL_STEPS,
  type ClaimantExposure,
  type FnolDraft,
  type FnolStep,
  type LoadedFnol,
  type LossDetails,
  type PolicySearchBy,
  type PolicySummary,
  type ReportedBy,
  type SavedDraft,
} from './fnol-types.js';

/**
 * The FNOL wizard (spec "FNOL steps: Policy Search, Reported By, product-specific steps, Submit
 * Claim"), without React:
 *
 *   start ─(fnolNumber)→ loading ─→ the saved step | opened (already a claim) | loadFailed
 *         └───────────→ policySearch
 *   policySearch ─SEARCH→ searching ─→ policySearch (results)      SELECT_POLICY, SELECT_REVISION
 *   every step ─NEXT (when its fields are valid)→ saving ─→ the next step     BACK → previous step
 *   submitClaim ─SUBMIT→ submitting ─→ submitted (final; the claim's number in `claimNumber`)
 *
 * Every NEXT saves the draft on the server (status draft, `current_fnol_step`), so the FNOL can be
 * resumed by number. The calls are actors the page provides (`machine.provide({ actors })`).
 */
export interface FnolContext {
  draft: FnolDraft;
  step: FnolStep;
  /** The step a save is heading to. */
  target: FnolStep;
  query: string;
  searchBy: PolicySearchBy;
  results: PolicySummary[];
  searched: boolean;
  error: string | null;
  /** Field → message for the current step. */
  fieldErrors: Record<string, string>;
  claimNumber: string | null;
}

export type FnolEvent =
  | { type: 'SEARCH'; query: string; searchBy: PolicySearchBy }
  | { type: 'SELECT_POLICY'; policy: PolicySummary }
  | { type: 'SELECT_REVISION'; revisionId: string }
  | { type: 'UPDATE_REPORTER'; values: Partial<ReportedBy> }
  | { type: 'UPDATE_LOSS'; values: Partial<LossDetails> }
  | { type: 'ADD_CLAIMANT'; claimant: ClaimantExposure }
  | { type: 'REMOVE_CLAIMANT'; index: number }
  | { type: 'NEXT' }
  | { type: 'BACK' }
  | { type: 'SUBMIT' };

export interface FnolInput {
  fnolNumber?: string | null;
}

const REQUIRED = 'This field is required.';
const nextStep = (step: FnolStep): FnolStep =>
  FNOL_STEPS[Math.min(FNOL_STEPS.indexOf(step) + 1, FNOL_STEPS.length - 1)]!;
const previousStep = (step: FnolStep): FnolStep => FNOL_STEPS[Math.max(FNOL_STEPS.indexOf(step) - 1, 0)]!;

/** The fields a step needs before NEXT; empty when it may go on. */
export function stepErrors(step: FnolStep, draft: FnolDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  const need = (field: string, value: string) => {
    if (!value.trim()) errors[field] = REQUIRED;
  };
  if (step === 'policy-search') {
    if (!draft.policy) errors.policy = 'Select a policy.';
    else if (!draft.revisionId) errors.revision = 'Select a policy revision.';
  } else if (step === 'reported-by') {
    need('name', draft.reportedBy.name);
  } else if (step === 'loss-details') {
    need('date_of_loss', draft.loss.date_of_loss);
    need('loss_description', draft.loss.loss_description);
    if (draft.loss.date_of_loss && draft.loss.date_of_loss > new Date().toISOString().slice(0, 10))
      errors.date_of_loss = 'The date of loss cannot be in the future.';
  } else if (step === 'claimants') {
    if (draft.claimants.length === 0) errors.claimants = 'Add at least one claimant and exposure.';
  }
  return errors;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const fnolMachine = setup({
  types: {
    context: {} as FnolContext,
    events: {} as FnolEvent,
    input: {} as FnolInput,
  },
  actors: {
    searchPolicies: fromPromise<PolicySummary[], { query: string; searchBy: PolicySearchBy }>(async () => {
      throw new Error('searchPolicies not provided');
    }),
    loadFnol: fromPromise<LoadedFnol, { fnolNumber: string }>(async () => {
      throw new Error('loadFnol not provided');
    }),
    saveDraft: fromPromise<SavedDraft, { draft: FnolDraft; step: FnolStep }>(async () => {
      throw new Error('saveDraft not provided');
    }),
    submitClaim: fromPromise<{ claimNumber: string }, { draft: FnolDraft }>(async () => {
      throw new Error('submitClaim not provided');
    }),
  },
  guards: {
    hasFnolNumber: ({ context }) => !!context.draft.fnolNumber,
    stepValid: ({ context }) => Object.keys(stepErrors(context.step, context.draft)).length === 0,
  },
  actions: {
    showStepErrors: assign({ fieldErrors: ({ context }) => stepErrors(context.step, context.draft) }),
    clearErrors: assign({ fieldErrors: {}, error: null }),
    goBack: assign({ step: ({ context }) => previousStep(context.step), fieldErrors: {}, error: null }),
  },
}).createMachine({
  id: 'fnol',
  context: ({ input }) => {
    const draft = emptyDraft();
    draft.fnolNumber = input?.fnolNumber || null;
    return {
      draft,
      step: 'policy-search',
      target: 'policy-search',
      query: '',
      searchBy: 'policyNumber',
      results: [],
      searched: false,
      error: null,
      fieldErrors: {},
      claimNumber: null,
    };
  },
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasFnolNumber', target: 'loading' }, { target: 'step' }],
    },
    loading: {
      invoke: {
        src: 'loadFnol',
        input: ({ context }) => ({ fnolNumber: context.draft.fnolNumber! }),
        onDone: [
          {
            guard: ({ event }) => event.output.status !== 'draft',
            target: 'opened',
            actions: assign({ claimNumber: ({ event }) => event.output.claimNumber }),
          },
          {
            target: 'step',
            actions: assign({ draft: ({ event }) => event.output.draft, step: ({ event }) => event.output.step }),
          },
        ],
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => message(event.error) }) },
      },
    },
    loadFailed: { type: 'final' },
    /** The FNOL number belongs to a submitted claim: the page opens the claim. */
    opened: { type: 'final' },
    step: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            SEARCH: {
              target: 'searching',
              actions: assign({ query: ({ event }) => event.query, searchBy: ({ event }) => event.searchBy }),
            },
            SELECT_POLICY: {
              actions: assign({
                draft: ({ context, event }) => ({
                  ...context.draft,
                  policy: event.policy,
                  // One revision is the only choice; with several the user picks.
                  revisionId: event.policy.revisions.length === 1 ? event.policy.revisions[0]!.id : null,
                }),
                fieldErrors: {},
              }),
            },
            SELECT_REVISION: {
              actions: assign({
                draft: ({ context, event }) => ({ ...context.draft, revisionId: event.revisionId }),
                fieldErrors: {},
              }),
            },
            UPDATE_REPORTER: {
              actions: assign({
                draft: ({ context, event }) => ({
                  ...context.draft,
                  reportedBy: { ...context.draft.reportedBy, ...event.values },
                }),
              }),
            },
            UPDATE_LOSS: {
              actions: assign({
                draft: ({ context, event }) => ({ ...context.draft, loss: { ...context.draft.loss, ...event.values } }),
              }),
            },
            ADD_CLAIMANT: {
              actions: assign({
                draft: ({ context, event }) => ({
                  ...context.draft,
                  claimants: [...context.draft.claimants, event.claimant],
                }),
                fieldErrors: {},
              }),
            },
            REMOVE_CLAIMANT: {
              actions: assign({
                draft: ({ context, event }) => ({
                  ...context.draft,
                  claimants: context.draft.claimants.filter((_, i) => i !== event.index),
                }),
              }),
            },
            NEXT: [
              {
                guard: ({ context }) => context.step === 'submit-claim',
                actions: assign({ error: null }),
              },
              {
                guard: 'stepValid',
                target: 'saving',
                actions: [assign({ target: ({ context }) => nextStep(context.step) }), 'clearErrors'],
              },
              { actions: 'showStepErrors' },
            ],
            BACK: { actions: 'goBack' },
            SUBMIT: { guard: ({ context }) => context.step === 'submit-claim', target: 'submitting' },
          },
        },
        searching: {
          invoke: {
            src: 'searchPolicies',
            input: ({ context }) => ({ query: context.query, searchBy: context.searchBy }),
            onDone: {
              target: 'editing',
              actions: assign({ results: ({ event }) => event.output, searched: true, error: null }),
            },
            onError: {
              target: 'editing',
              actions: assign({ results: [], searched: true, error: ({ event }) => message(event.error) }),
            },
          },
        },
        saving: {
          invoke: {
            src: 'saveDraft',
            input: ({ context }) => ({ draft: context.draft, step: context.target }),
            onDone: {
              target: 'editing',
              actions: assign({
                draft: ({ context, event }) => ({
                  ...context.draft,
                  claimId: event.output.claimId,
                  fnolNumber: event.output.fnolNumber,
                  productId: event.output.productId,
                  etag: event.output.etag,
                }),
                step: ({ context }) => context.target,
              }),
            },
            onError: { target: 'editing', actions: assign({ error: ({ event }) => message(event.error) }) },
          },
        },
        submitting: {
          invoke: {
            src: 'submitClaim',
            input: ({ context }) => ({ draft: context.draft }),
            onDone: {
              target: '#fnol.submitted',
              actions: assign({ claimNumber: ({ event }) => event.output.claimNumber }),
            },
            onError: { target: 'editing', actions: assign({ error: ({ event }) => message(event.error) }) },
          },
        },
      },
    },
    submitted: { type: 'final' },
  },
});
