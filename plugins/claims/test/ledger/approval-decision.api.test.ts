import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDoc, reserveDoc, startLedgerServer, type LedgerTestServer } from './ledger-test-server.js';

/**
 * GET approvals/{id}/decision/ answers what approve/reject would: the screens show Approve and Reject
 * only to those the server would let decide (requester, authority, access policy).
 */
let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer();
});
afterAll(async () => {
  await server?.close();
});

const body = async (response: Response) => (await response.json()) as any;

async function pendingPayment(amount: string) {
  const { claimId, exposureIds } = await server.createClaim(1);
  const e = exposureIds[0]!;
  await server.adjuster.post(
    '/api/claims/reserves/',
    reserveDoc(e, { new_amount: '20000.00', reserve_category: 'indemnity' }),
  );
  const pending = await server.adjuster.post(
    '/api/claims/payments/',
    paymentDoc(e, { amount, reserve_category: 'indemnity' }),
  );
  expect(pending.status).toBe(202);
  return { claimId, id: (await body(pending)).data.id as string };
}

const decisionOf = async (username: string, id: string) => {
  const response = await server.as(username).get(`/api/claims/approvals/${id}/decision/`);
  expect(response.status).toBe(200);
  return (await body(response)).data.attributes;
};

describe('approval decisions', () => {
  it('the requester may neither approve nor reject; a colleague beyond authority may only reject; the administrator may both', async () => {
    const { id } = await pendingPayment('6000.00');
    expect(await decisionOf('adjuster@atrium.test', id)).toEqual({
      may_approve: false,
      may_reject: false,
      approve_refusal: 'You cannot approve your own transaction.',
      reject_refusal: 'You cannot reject your own transaction.',
    });
    const colleague = await decisionOf('sms@atrium.test', id);
    expect(colleague).toMatchObject({ may_approve: false, may_reject: true, reject_refusal: null });
    expect(colleague.approve_refusal).toContain('Your authority does not cover transaction');
    expect(await decisionOf('admin@atrium.test', id)).toEqual({
      may_approve: true,
      may_reject: true,
      approve_refusal: null,
      reject_refusal: null,
    });
    // The trial approval wrote nothing: the payment still waits, and the administrator's answer holds.
    const still = await body(await server.admin.get(`/api/claims/transactions/${id}/`));
    expect(still.data.attributes.transaction_status).toBe('pending_approval');

    // The server agrees with the decision: the requester's reject is refused, the colleague's approve too.
    const ownReject = await server.adjuster.post(`/api/claims/approvals/${id}/reject/`, {
      data: { type: 'transactions', attributes: { reason: 'Changed my mind' } },
    });
    expect(ownReject.status).toBe(403);
    expect((await body(ownReject)).errors[0].detail).toBe('You cannot reject your own transaction.');
    const colleagueApprove = await server
      .as('sms@atrium.test')
      .post(`/api/claims/approvals/${id}/approve/`, { data: { type: 'transactions' } });
    expect(colleagueApprove.status).toBe(403);
    const approved = await server.admin.post(`/api/claims/approvals/${id}/approve/`, {
      data: { type: 'transactions' },
    });
    expect(approved.status).toBe(200);
    // Decided: nobody may decide it again.
    expect(await decisionOf('admin@atrium.test', id)).toMatchObject({ may_approve: false, may_reject: false });
  });

  it('answers 404 for a transaction the caller cannot see and needs transaction read', async () => {
    expect((await server.admin.get('/api/claims/approvals/999999/decision/')).status).toBe(404);
    const { id } = await pendingPayment('5500.00');
    expect((await server.as('nobody@atrium.test').get(`/api/claims/approvals/${id}/decision/`)).status).toBe(403);
  });
});
