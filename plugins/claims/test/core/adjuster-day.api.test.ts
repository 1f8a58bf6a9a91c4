import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachment } from '../../server/core/tables.js';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/**
 * An adjuster's day on the API (issue 15): policy coverages at FNOL, payment methods and payees,
 * the claim balance, attachment folders, and the server-set fields and dates of issue 14.
 */
let server: ClaimsTestServer;
let adjuster: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
}, 180_000);
afterAll(async () => server?.close());

const policyNamed = async (number: string) => {
  const found = await (await adjuster('GET', `/integrations/policies/search/?policyNumber=${number}`)).json();
  return found.data[0] as { id: string; attributes: { revisions: { id: number; coverages: any[] }[] } };
};

/** Files an FNOL on the policy (draft with claimants, then submit); answers the submitted claim. */
async function fileFnol(policyNumber: string, claimants: Record<string, unknown>[]) {
  const policy = await policyNamed(policyNumber);
  const revisionId = policy.attributes.revisions[0]!.id;
  const created = await adjuster(
    'POST',
    '/claims/',
    doc('claim', {
      status: 'draft',
      policy_id: Number(policy.id),
      policy_number: policyNumber,
      policy_revision_id: revisionId,
      policy_type: policyNumber.startsWith('PA') ? 'Personal Auto' : 'Homeowners',
      loss_description: 'Rear-ended at a light',
      date_of_loss: '2026-10-01',
      claimants,
    }),
  );
  expect(created.status).toBe(201);
  const id = (await created.json()).data.id as string;
  const submitted = await adjuster(
    'POST',
    `/claims/${id}/submit/`,
    { data: { type: 'claim', id, attributes: {} } },
    { 'if-match': created.headers.get('etag')! },
  );
  return { id, revisionId, submitted };
}

describe('policy coverages at FNOL (issue 15, item 2)', () => {
  it('serves every demo policy revision with its coverages: type, label, limit, deductible, risk', async () => {
    const policy = await policyNamed('HO-100200');
    const revisionId = policy.attributes.revisions[0]!.id;
    const revision = await (await adjuster('GET', `/integrations/policies/revisions/${revisionId}/`)).json();
    expect(revision.data.attributes.coverages).toEqual([
      { coverage_type: 'Dwelling', label: 'Dwelling', limit: '300000.00', deductible: '1000.00', risk: '100 Main St' },
      {
        coverage_type: 'Personal Property',
        label: 'Personal Property',
        limit: '150000.00',
        deductible: '1000.00',
        risk: '100 Main St',
      },
      { coverage_type: 'Liability', label: 'Liability', limit: '300000.00', deductible: '0.00', risk: '100 Main St' },
    ]);
    const all = await (await adjuster('GET', '/integrations/policies/search/?page_size=100')).json();
    for (const p of all.data) expect(p.attributes.revisions[0].coverages.length).toBeGreaterThan(0);
  });

  it('changes a revision’s coverages and refuses a bad amount or a coverage listed twice', async () => {
    const policy = await policyNamed('PA-100201');
    const id = String(policy.attributes.revisions[0]!.id);
    const patch = (coverages: unknown[]) =>
      adjuster('PATCH', `/integrations/policies/revisions/${id}/`, {
        data: { type: 'policy-revision', id, attributes: { coverages } },
      });
    const bad = await patch([{ coverage_type: 'Collision', limit: '12.345', deductible: '0' }]);
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad))[0]).toMatch(/^\/data\/attributes\/coverages/);
    const twice = await patch([
      { coverage_type: 'Collision', limit: '1.00', deductible: '0' },
      { coverage_type: 'Collision', limit: '2.00', deductible: '0' },
    ]);
    expect(twice.status).toBe(400);
    expect(await detailOf(twice)).toBe('Coverage Collision is listed twice.');
    const ok = await patch([
      { coverage_type: 'Collision', limit: '50000.00', deductible: '500.00', risk: '2011 Sedan' },
      { coverage_type: 'Towing', label: 'Towing and Labor', limit: '200.00', deductible: '0.00' },
      { coverage_type: 'Rental', limit: '030', deductible: '0.5' },
    ]);
    expect(ok.status).toBe(200);
    const saved = (await ok.json()).data.attributes.coverages;
    expect(saved[1]).toEqual({
      coverage_type: 'Towing',
      label: 'Towing and Labor',
      limit: '200.00',
      deductible: '0.00',
      risk: '',
    });
    // Amounts are kept as money: two decimal places.
    expect(saved[2]).toMatchObject({ limit: '30.00', deductible: '0.50' });
  });

  it('an FNOL exposure keeps the coverage type and revision id; the exposure shows names', async () => {
    const { id, revisionId, submitted } = await fileFnol('PA-100211', [
      { claimant_name: 'Pat Driver', coverage_type: 'Collision', coverage: 'Collision', description: 'Rear bumper' },
    ]);
    expect(submitted.status).toBe(200);
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${id}`)).json();
    expect(exposures.data).toHaveLength(1);
    expect(exposures.data[0].attributes).toMatchObject({
      exposure_name: 'Collision',
      coverage_type: 'Collision',
      policy_revision_id: revisionId,
      coverage_name: 'Collision',
      claimant_name: 'Pat Driver',
    });
  });

  it('refuses a coverage the policy revision does not list (400 on claimants)', async () => {
    const { submitted } = await fileFnol('PA-100211', [
      { claimant_name: 'Pat Driver', coverage_type: 'Dwelling', description: '' },
    ]);
    expect(submitted.status).toBe(400);
    expect(await pointersOf(submitted)).toEqual(['/data/attributes/claimants']);
  });

  it('seeded exposures name their coverage and claimant', async () => {
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${claims.data[0].id}`)).json();
    for (const e of exposures.data) {
      expect(e.attributes.coverage_name).toMatch(/^[A-Z][a-z]/);
      expect(e.attributes.claimant_name).toMatch(/^[A-Z][a-z]+ [A-Z]/);
      expect(e.attributes.coverage_type).toBe(e.attributes.coverage_name);
      expect(e.attributes.policy_revision_id).toEqual(expect.any(Number));
    }
  });
});

const exposureDoc = (type: string, exposureId: string, attributes: Record<string, unknown>, extra = {}) => ({
  data: {
    type,
    attributes,
    relationships: { exposure: { data: { type: 'exposures', id: exposureId } }, ...extra },
  },
});

/** A fresh claim with one Collision exposure and its claimant party. */
async function claimWithExposure() {
  const { id } = await fileFnol('PA-100211', [
    { claimant_name: 'Quinn Payee', coverage_type: 'Collision', coverage: 'Collision', description: '' },
  ]);
  const exposures = await (await adjuster('GET', `/exposures/?filter[claim_id]=${id}`)).json();
  const parties = await (await adjuster('GET', `/parties/?filter[claim]=${id}`)).json();
  return { claimId: id, exposureId: exposures.data[0].id as string, partyId: parties.data[0].id as string };
}

describe('My claims (issue 15, item 12)', () => {
  it('lists the claims the user filed beside those the user adjusts', async () => {
    const { id } = await fileFnol('HO-100200', [
      { claimant_name: 'Sawyer Neighbor', coverage_type: 'Liability', description: 'Fence' },
    ]);
    const number = (await (await adjuster('GET', `/claims/${id}/`)).json()).data.attributes.number;
    const mine = await (
      await adjuster('GET', `/claims/?filter[adjuster_or_filer]=adjuster@atrium.test&numbers=${number}`)
    ).json();
    expect(mine.data.map((c: any) => c.attributes.number)).toEqual([number]);
    const theirs = await (
      await adjuster('GET', `/claims/?filter[adjuster_or_filer]=admin@atrium.test&numbers=${number}`)
    ).json();
    expect(theirs.data).toEqual([]);
  });
});

describe('payment methods, pay codes and payees (issue 15, items 3 and 4)', () => {
  it('payment-methods/ and pay-codes/ answer the list client’s paging and filter parameters', async () => {
    const methods = await adjuster('GET', '/payment-methods/?filter[active]=true&page[number]=1&page[size]=250');
    expect(methods.status).toBe(200);
    expect((await methods.json()).data.map((m: any) => m.id)).toEqual(
      expect.arrayContaining(['check', 'ach', 'wire', 'card']),
    );
    const codes = await adjuster('GET', '/pay-codes/?page[number]=1&page[size]=250');
    expect(codes.status).toBe(200);
    expect((await codes.json()).data.map((m: any) => m.id)).toEqual(expect.arrayContaining(['loss', 'expense']));
  });

  it('a claim party becomes its one payee; the payment keeps the chosen method and shows the payee', async () => {
    const { exposureId, partyId } = await claimWithExposure();
    const made = await adjuster('POST', '/payees/', doc('payees', { party_id: Number(partyId) }));
    expect(made.status).toBe(201);
    const payee = (await made.json()).data;
    expect(payee.attributes).toMatchObject({ name: 'Quinn Payee', party_id: Number(partyId) });
    const again = await adjuster('POST', '/payees/', doc('payees', { party_id: Number(partyId) }));
    expect(again.status).toBe(200);
    expect((await again.json()).data.id).toBe(payee.id);
    const unknown = await adjuster('POST', '/payees/', doc('payees', { party_id: 99999999 }));
    expect(unknown.status).toBe(400);
    expect(await detailOf(unknown)).toBe('Party 99999999 not found.');

    const reserve = await adjuster(
      'POST',
      '/reserves/',
      exposureDoc('reserves', exposureId, { new_amount: '2000.00', reserve_category: 'indemnity' }),
    );
    expect(reserve.status).toBe(201);
    const payment = await adjuster(
      'POST',
      '/payments/',
      exposureDoc(
        'payments',
        exposureId,
        { amount: '450.00', reserve_category: 'indemnity', payment_method: 'wire' },
        { payees: { data: [{ type: 'payees', id: payee.id }] } },
      ),
    );
    expect(payment.status).toBe(201);
    const posted = (await payment.json()).data;
    expect(posted.attributes).toMatchObject({ payment_method: 'wire', payee: 'Quinn Payee' });
    const listed = await (await adjuster('GET', `/payments/?filter[exposure]=${exposureId}`)).json();
    expect(listed.data.map((p: any) => p.attributes.payee)).toContain('Quinn Payee');
  });
});

describe('the claim balance: total incurred (issue 15, item 5)', () => {
  const incurredEverywhere = async (claimId: string) => {
    const one = (await (await adjuster('GET', `/claims/${claimId}/`)).json()).data.attributes;
    const listed = (await (await adjuster('GET', `/claims/?numbers=${one.number}`)).json()).data[0].attributes;
    const financials = (await (await adjuster('GET', `/claims/${claimId}/financials/`)).json()).data.attributes;
    return { claim: one.total_incurred, list: listed.total_incurred, accounting: financials.total_incurred };
  };

  it('seeded claims: the claim, the list and Accounting agree (the migration and seed fill the balance)', async () => {
    const page = await (await adjuster('GET', '/claims/?status=open&page[size]=250')).json();
    const withMoney = page.data.filter((c: any) => c.attributes.total_incurred !== '0.00');
    expect(withMoney.length).toBeGreaterThan(0);
    for (const c of withMoney.slice(0, 3)) {
      const seen = await incurredEverywhere(c.id);
      expect(seen.list).toBe(seen.accounting);
      expect(seen.claim).toBe(seen.accounting);
    }
  });

  it('every posting and void moves the balance in its own transaction', async () => {
    const { claimId, exposureId } = await claimWithExposure();
    expect(await incurredEverywhere(claimId)).toEqual({ claim: '0.00', list: '0.00', accounting: '0.00' });
    await adjuster(
      'POST',
      '/reserves/',
      exposureDoc('reserves', exposureId, { new_amount: '1200.00', reserve_category: 'indemnity' }),
    );
    const payment = await adjuster(
      'POST',
      '/payments/',
      exposureDoc('payments', exposureId, { amount: '300.00', reserve_category: 'indemnity', payment_method: 'ach' }),
    );
    expect(payment.status).toBe(201);
    // Paying erodes the reserve: 300 paid + 900 outstanding.
    expect(await incurredEverywhere(claimId)).toEqual({ claim: '1200.00', list: '1200.00', accounting: '1200.00' });
    const paymentId = (await payment.json()).data.id;
    const voided = await adjuster('POST', `/payments/${paymentId}/void/`, {
      data: { type: 'payments', attributes: { void_reason: 'Duplicate' } },
    });
    expect(voided.status).toBeLessThan(300);
    const after = await incurredEverywhere(claimId);
    expect(after.claim).toBe(after.accounting);
    expect(after.list).toBe(after.accounting);
  });
});

describe('attachments from the claim’s creation (issue 15, item 7)', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it('a new claim has its folder; upload, list, download, move and delete work in it', async () => {
    const created = await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Hail' }));
    const claim = (await created.json()).data;
    const root = claim.attributes.exposures_folder_id;
    expect(root).toEqual(expect.any(Number));
    const tree = await (await adjuster('GET', `/integrations/attachments/${root}/folder-tree/`)).json();
    expect(tree.data.attributes ?? tree.data[0].attributes).toMatchObject({ name: claim.attributes.number });

    const file = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'estimate.txt', mime_type: 'text/plain', content: base64('1,200'), folder_id: root }),
    );
    expect(file.status).toBe(201);
    const fileId = (await file.json()).data.id;
    const listed = await (await adjuster('GET', `/integrations/attachments/${root}/`)).json();
    expect(listed.data.map((a: any) => a.attributes.name)).toContain('estimate.txt');
    const download = await adjuster('GET', `/integrations/attachments/${fileId}/content/`, undefined, {
      accept: '*/*',
    });
    expect(await download.text()).toBe('1,200');

    const folder = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment-folder', { name: 'Estimates', parent_id: root, reference_id: claim.attributes.number }),
    );
    expect(folder.status).toBe(201);
    const folderId = (await folder.json()).data.id;
    const moved = await adjuster('PATCH', `/integrations/attachments/${folderId}/move-attachments/`, {
      data: [{ type: 'attachment', id: fileId }],
    });
    expect(moved.status).toBeLessThan(300);
    const inFolder = await (await adjuster('GET', `/integrations/attachments/${folderId}/`)).json();
    expect(inFolder.data.map((a: any) => a.id)).toEqual([fileId]);
    expect((await adjuster('DELETE', `/integrations/attachments/${fileId}`)).status).toBe(204);
    const after = await (await adjuster('GET', `/integrations/attachments/${folderId}/`)).json();
    expect(after.data).toEqual([]);
  });

  it('every seeded claim has its folder (the migration gave the existing ones theirs)', async () => {
    const page = await (await adjuster('GET', '/claims/?page[size]=250')).json();
    for (const c of page.data) expect(c.attributes.exposures_folder_id).toEqual(expect.any(Number));
  });
});

describe('server-set fields and sane values (issue 14, item 10)', () => {
  it('claim-events.created_by is the caller, never the client’s', async () => {
    const claims = await (await adjuster('GET', '/claims/?status=open&page[size]=1')).json();
    const onClaim = { relationships: { claim: { data: { type: 'claim', id: claims.data[0].id } } } };
    const forged = await adjuster(
      'POST',
      '/claim-events/',
      doc('claim-event', { event_type: 'note', created_by: 'admin@atrium.test' }, onClaim),
    );
    expect(forged.status).toBe(400);
    expect(await pointersOf(forged)).toEqual(['/data/attributes/created_by']);
    const made = await adjuster('POST', '/claim-events/', doc('claim-event', { event_type: 'note' }, onClaim));
    expect(made.status).toBe(201);
    const event = (await made.json()).data;
    expect(event.attributes.created_by).toBe('adjuster@atrium.test');
  });

  it('a date of loss out of range or not a day is a 400 on date_of_loss, not a 500', async () => {
    const created = await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Dates' }));
    const id = (await created.json()).data.id;
    for (const bad of ['99999-01-01', '2026-02-30', '1066-10-14']) {
      const patched = await adjuster(
        'PATCH',
        `/claims/${id}/`,
        { data: { type: 'claim', id, attributes: { date_of_loss: bad } } },
        { 'if-match': created.headers.get('etag')! },
      );
      expect(patched.status, bad).toBe(400);
      expect(await pointersOf(patched)).toEqual(['/data/attributes/date_of_loss']);
    }
  });

  it('refuses a MIME type with CR/LF at upload; an old bad row downloads as octet-stream', async () => {
    const claim = (await (await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Mime' }))).json()).data;
    const folderId = claim.attributes.exposures_folder_id;
    for (const path of ['/integrations/attachments/', '/integrations/attachments/upload-tickets/']) {
      const refused = await adjuster(
        'POST',
        path,
        path.endsWith('upload-tickets/')
          ? doc('attachment-upload', {
              name: 'a.txt',
              mime_type: 'text/plain\r\nX-Evil: 1',
              size: 2,
              folder_id: folderId,
            })
          : doc('attachment', {
              name: 'a.txt',
              mime_type: 'text/plain\r\nX-Evil: 1',
              content: 'aGk=',
              folder_id: folderId,
            }),
      );
      expect(refused.status, path).toBe(400);
      expect(await pointersOf(refused)).toEqual(['/data/attributes/mime_type']);
    }
    const [old] = await server.atrium.database.db
      .insert(attachment)
      .values({
        folderId,
        name: 'old.txt',
        mimeType: 'text/plain\r\nX-Evil: 1',
        size: 2,
        content: Buffer.from('hi'),
        uploadedBy: 'adjuster@atrium.test',
      })
      .returning({ id: attachment.id });
    const download = await adjuster('GET', `/integrations/attachments/${old!.id}/content/`, undefined, {
      accept: '*/*',
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('x-evil')).toBeNull();
    expect(await download.text()).toBe('hi');
  });
});
