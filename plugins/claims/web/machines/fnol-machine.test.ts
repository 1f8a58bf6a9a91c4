import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { deferred, startMachine } from '@atrium/sdk/testing';
import { fnolMachine, stepErrors } from './fnol-machine.js';
import { emptyDraft, type FnolDraft, type FnolStep, type LoadedFnol, type PolicySummary } from './fnol-types.js';

/**
 * The FNOL wizard headless: the policy search, draft saves and the submission are scripted actors
 * that record what they were asked, so each test checks the steps and what reached the server.
 */
const policy: PolicySummary = {
  id: '7',
  source: 'mock',
  policy_number: 'POL-1001',
  primary_insured: 'Ada Insured',
  policy_type: 'Auto',
  status: 'In Force',
  revisions: [
    {
      id: 'r1',
      number: '1',
      effective_date: '2026-01-01',
      expiration_date: '2027-01-01',
      policy_type: 'Auto',
      coverages: [],
    },
    {
      id: 'r2',
      number: '2',
      effective_date: '2026-06-01',
      expiration_date: '2027-01-01',
      policy_type: 'Auto',
      coverages: [],
    },
  ],
};

function scripted(
  overrides: { load?: (n: string) => Promise<LoadedFnol>; submit?: () => Promise<{ claimNumber: string }> } = {},
) {
  const saves: { step: FnolStep; draft: FnolDraft }[] = [];
  const searches: { query: string; searchBy: string }[] = [];
  const machine = fnolMachine.provide({
    actors: {
      searchPolicies: fromPromise(async ({ input }) => {
        searches.push(input);
        if (input.query === 'boom') throw new Error('Service unavailable');
        return input.query === 'POL-1001' ? [policy] : [];
      }),
      saveDraft: fromPromise(async ({ input }) => {
        saves.push(input);
        return { claimId: '41', fnolNumber: 'FNOL-9', productId: '2', etag: `W/"${saves.length}"` };
      }),
      loadFnol: fromPromise(async ({ input }) => {
        if (overrides.load) return overrides.load(input.fnolNumber);
        throw new Error(`FNOL ${input.fnolNumber} not found.`);
      }),
      submitClaim: fromPromise(async () => (overrides.submit ? overrides.submit() : { claimNumber: 'CLM-000041' })),
    },
  });
  return { machine, saves, searches };
}

describe('FNOL machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes from policy search through every step to a submitted claim, saving the draft at each step', async () => {
    const { machine, saves, searches } = scripted();
    const fnol = startMachine(machine, { input: {} });
    expect(fnol.state()).toBe('step.editing');

    fnol.send({ type: 'SEARCH', query: 'POL-1001', searchBy: 'policyNumber' });
    await fnol.flush();
    expect(searches).toEqual([{ query: 'POL-1001', searchBy: 'policyNumber' }]);
    expect(fnol.snapshot().context.results).toEqual([policy]);

    // Two revisions: the user must pick one before going on.
    fnol.send({ type: 'SELECT_POLICY', policy });
    fnol.send({ type: 'NEXT' });
    expect(fnol.snapshot().context.fieldErrors).toEqual({ revision: 'Select a policy revision.' });
    expect(saves).toHaveLength(0);
    fnol.send({ type: 'SELECT_REVISION', revisionId: 'r2' });
    fnol.send({ type: 'NEXT' });
    await fnol.flush();
    expect(fnol.snapshot().context.step).toBe('reported-by');
    expect(saves[0]).toMatchObject({ step: 'reported-by', draft: { revisionId: 'r2', policy: { id: '7' } } });
    expect(fnol.snapshot().context.draft.fnolNumber).toBe('FNOL-9');

    fnol.send({ type: 'NEXT' });
    expect(fnol.snapshot().context.fieldErrors).toEqual({ name: 'This field is required.' });
    fnol.send({ type: 'UPDATE_REPORTER', values: { name: 'Ada Insured', relation: 'Insured' } });
    fnol.send({ type: 'NEXT' });
    await fnol.flush();
    expect(fnol.snapshot().context.step).toBe('loss-details');

    fnol.send({
      type: 'UPDATE_LOSS',
      values: { date_of_loss: '2026-02-03', loss_description: 'Rear-ended at a light' },
    });
    fnol.send({ type: 'NEXT' });
    await fnol.flush();
    expect(fnol.snapshot().context.step).toBe('claimants');

    fnol.send({ type: 'NEXT' });
    expect(fnol.snapshot().context.fieldErrors.claimants).toBe('Add at least one claimant and exposure.');
    fnol.send({
      type: 'ADD_CLAIMANT',
      claimant: { claimant_name: 'Ada Insured', coverage_type: 'Collision', coverage: 'Collision', description: '' },
    });
    fnol.send({ type: 'NEXT' });
    await fnol.flush();
    expect(fnol.snapshot().context.step).toBe('submit-claim');
    expect(saves.map((s) => s.step)).toEqual(['reported-by', 'loss-details', 'claimants', 'submit-claim']);
    expect(saves[3]!.draft.claimants).toHaveLength(1);
    // The product the server resolved for the draft is kept for the product-specific lookups.
    expect(fnol.snapshot().context.draft.productId).toBe('2');

    fnol.send({ type: 'SUBMIT' });
    await fnol.flush();
    expect(fnol.state()).toBe('submitted');
    expect(fnol.snapshot().context.claimNumber).toBe('CLM-000041');
  });

  it('goes back a step without saving, and keeps a failed search or save as an error on the same step', async () => {
    const { machine, saves } = scripted();
    const fnol = startMachine(machine, { input: {} });
    fnol.send({ type: 'SEARCH', query: 'boom', searchBy: 'name' });
    await fnol.flush();
    expect(fnol.snapshot().context).toMatchObject({ error: 'Service unavailable', results: [], searched: true });

    fnol.send({ type: 'SELECT_POLICY', policy: { ...policy, revisions: [policy.revisions[0]!] } });
    expect(fnol.snapshot().context.draft.revisionId).toBe('r1');
    fnol.send({ type: 'NEXT' });
    await fnol.flush();
    fnol.send({ type: 'BACK' });
    expect(fnol.snapshot().context.step).toBe('policy-search');
    expect(saves).toHaveLength(1);
  });

  it('resumes a draft at its saved step, opens an FNOL that is already a claim, and reports an unknown number', async () => {
    const draft = { ...emptyDraft(), claimId: '41', fnolNumber: 'FNOL-9', policy, revisionId: 'r1' };
    const resumed = startMachine(
      scripted({ load: async () => ({ draft, step: 'loss-details', status: 'draft', claimNumber: 'CLM-41' }) }).machine,
      { input: { fnolNumber: 'FNOL-9' } },
    );
    await resumed.flush();
    expect(resumed.snapshot().context.step).toBe('loss-details');
    expect(resumed.snapshot().context.draft.policy?.policy_number).toBe('POL-1001');

    const open = startMachine(
      scripted({ load: async () => ({ draft, step: 'submit-claim', status: 'open', claimNumber: 'CLM-41' }) }).machine,
      { input: { fnolNumber: 'FNOL-9' } },
    );
    await open.flush();
    expect(open.state()).toBe('opened');
    expect(open.snapshot().context.claimNumber).toBe('CLM-41');

    const missing = startMachine(scripted().machine, { input: { fnolNumber: 'FNOL-404' } });
    await missing.flush();
    expect(missing.state()).toBe('loadFailed');
    expect(missing.snapshot().context.error).toBe('FNOL FNOL-404 not found.');
  });

  it('refuses a second SUBMIT while one is in flight and shows a failed submission on the last step', async () => {
    const answer = deferred<{ claimNumber: string }>();
    let calls = 0;
    const { machine } = scripted({
      submit: () => {
        calls += 1;
        return answer.promise;
      },
    });
    const draft: FnolDraft = { ...emptyDraft(), claimId: '41', fnolNumber: 'FNOL-9' };
    const loaded: LoadedFnol = { draft, step: 'submit-claim', status: 'draft', claimNumber: 'X' };
    const fnol = startMachine(
      machine.provide({ actors: { loadFnol: fromPromise<LoadedFnol, { fnolNumber: string }>(async () => loaded) } }),
      { input: { fnolNumber: 'FNOL-9' } },
    );
    await fnol.flush();
    fnol.send({ type: 'SUBMIT' });
    fnol.send({ type: 'SUBMIT' });
    expect(calls).toBe(1);
    answer.reject(new Error('Claim cannot be submitted without a claimant.'));
    await fnol.flush();
    expect(fnol.state()).toBe('step.editing');
    expect(fnol.snapshot().context.error).toBe('Claim cannot be submitted without a claimant.');
  });

  it('asks for the date of loss and a description, and refuses a date in the future', () => {
    const draft = emptyDraft();
    expect(stepErrors('loss-details', draft)).toEqual({
      date_of_loss: 'This field is required.',
      loss_description: 'This field is required.',
    });
    draft.loss = { ...draft.loss, date_of_loss: '2999-01-01', loss_description: 'Hail' };
    expect(stepErrors('loss-details', draft)).toEqual({ date_of_loss: 'The date of loss cannot be in the future.' });
  });
});
