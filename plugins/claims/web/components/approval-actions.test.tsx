// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { ApprovalActions } from './approval-actions.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const decision = (attributes: Record<string, unknown>) =>
  new Response(JSON.stringify({ data: { type: 'approval-decisions', id: '41', attributes } }), { headers: JSONAPI });
const APPROVAL = { id: '41', type: 'payments', number: 'TXN-00000041', amount: '6000.00' };

describe('Approve and Reject of a pending payment', () => {
  beforeAll(preloadTestHost);

  it('shows neither to the requester (the server says they may not decide)', async () => {
    const host = await renderInTestHost(<ApprovalActions approval={APPROVAL} onDone={() => {}} />, {
      role: 'Claims Adjuster',
      apis: {
        'GET /claims/approvals/:id/decision/': () =>
          decision({
            may_approve: false,
            may_reject: false,
            approve_refusal: 'You cannot approve your own transaction.',
            reject_refusal: 'You cannot reject your own transaction.',
          }),
      },
    });
    await waitFor(() => expect(host.requests.some((r) => r.path.endsWith('/approvals/41/decision/'))).toBe(true));
    // Let the answer render before asserting nothing is there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reject/ })).toBeNull();
  });

  it('a refusal after clicking stays on the page with the spec message, no redirect to /forbidden', async () => {
    let done = 0;
    const host = await renderInTestHost(<ApprovalActions approval={APPROVAL} onDone={() => done++} />, {
      role: 'Claims Supervisor',
      apis: {
        'GET /claims/approvals/:id/decision/': () =>
          decision({ may_approve: true, may_reject: true, approve_refusal: null, reject_refusal: null }),
        'POST /claims/approvals/:id/approve/': () =>
          new Response(
            JSON.stringify({
              errors: [{ status: '403', detail: 'Your authority does not cover transaction TXN-00000041.' }],
            }),
            { status: 403, headers: JSONAPI },
          ),
      },
    });
    const approve = await screen.findByRole('button', { name: 'Approve TXN-00000041' });
    expect(screen.getByRole('button', { name: 'Reject TXN-00000041' }).hasAttribute('disabled')).toBe(true);
    await host.user.click(approve);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This operation is not allowed. (Error code: 403) Your authority does not cover transaction TXN-00000041.',
    );
    expect(host.location().pathname).toBe('/test-host');
    expect(done).toBe(0);
  });
});
