import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/**
 * Rows of claims (assignments, parties, claim events, reserves and payments, audit entries, summary
 * claimants) follow their claim: a role that may read only the claims of one loss state sees, in
 * every such list and by id, only the rows of those claims; a role without record conditions sees
 * them all. Demo claims are there too, so each list is compared with the full list as the adjuster
 * (claims:*) reads it, kept to the claims the reader's own claim list shows.
 */
const ROLE = 'Texas Claims Desk';
const USER = 'underwriter@atrium.test';
const STATE = 'TX';

let server: ClaimsTestServer;
let adjuster: Caller;
let reader: Caller;
/** The claims the reader may read, from their own (already record-filtered) claim list. */
let readable: Set<string>;

const ids = {
  texas: '',
  colorado: '',
  texasExposure: '',
  coloradoExposure: '',
  texasAssignment: '',
  coloradoAssignment: '',
  texasExposureAssignment: '',
  coloradoExposureAssignment: '',
  texasEvent: '',
  coloradoEvent: '',
  texasReserve: '',
  coloradoReserve: '',
  texasPayment: '',
  coloradoPayment: '',
  texasFolder: '',
  coloradoFolder: '',
  texasFile: '',
  coloradoFile: '',
};
const numbers = { texas: '', colorado: '' };

interface Row {
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string } | null }>;
}

async function created(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

const plainJson = { 'content-type': 'application/json' };

/** Every row of a JSON:API list (page[number]/page[size] paging), with the count of each page. */
async function allPages(caller: Caller, path: string): Promise<{ data: Row[]; counts: number[] }> {
  const data: Row[] = [];
  const counts: number[] = [];
  for (let page = 1; ; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const response = await caller('GET', `${path}${separator}page[number]=${page}&page[size]=250`);
    expect(response.status, path).toBe(200);
    const body = (await response.json()) as { data: Row[]; meta: { count: number; pages: number } };
    data.push(...body.data);
    counts.push(body.meta.count);
    if (page >= body.meta.pages) break;
  }
  return { data, counts };
}

/** Every row of a users-integration list (page/page_size paging). */
async function allAssignments(caller: Caller, path: string): Promise<{ data: Row[]; counts: number[] }> {
  const data: Row[] = [];
  const counts: number[] = [];
  for (let page = 1; ; page++) {
    const response = await caller('GET', `${path}?page=${page}&page_size=1000`);
    expect(response.status, path).toBe(200);
    const body = (await response.json()) as { data: Row[]; meta: { count: number; pages: number } };
    data.push(...body.data);
    counts.push(body.meta.count);
    if (page >= body.meta.pages) break;
  }
  return { data, counts };
}

/** The list as the reader sees it must be the adjuster's, kept to the readable claims, with counts to match. */
async function expectScoped(
  list: (caller: Caller) => Promise<{ data: Row[]; counts: number[] }>,
  claimOf: (row: Row) => string | null,
  shown: string[],
  hidden: string[],
) {
  const all = await list(adjuster);
  const allIds = all.data.map((r) => r.id);
  expect(allIds).toEqual(expect.arrayContaining([...shown, ...hidden]));
  const expected = all.data.filter((r) => {
    const claimId = claimOf(r);
    return claimId === null || readable.has(claimId);
  });
  const seen = await list(reader);
  expect(seen.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  expect(new Set(seen.counts)).toEqual(new Set([expected.length]));
  expect(expected.length).toBeLessThan(all.data.length);
  for (const id of shown) expect(seen.data.map((r) => r.id)).toContain(id);
  for (const id of hidden) expect(seen.data.map((r) => r.id)).not.toContain(id);
}

const relationshipId = (row: Row, name: string) => row.relationships?.[name]?.data?.id ?? null;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  await server.grantRole(ROLE, USER, {
    name: 'Texas claims and what hangs off them',
    statements: [
      {
        sid: 'texas',
        effect: 'allow',
        actions: ['read'],
        resources: ['claims:claim'],
        conditions: [{ attribute: 'record.loss_state', operator: 'eq', value: STATE }],
      },
      // Claim events and the like are declared on claims:claim: their writes are allowed, the claim
      // they name must still be readable.
      { sid: 'claim-kinds', effect: 'allow', actions: ['create', 'update', 'delete'], resources: ['claims:claim'] },
      {
        sid: 'rows',
        effect: 'allow',
        actions: ['read'],
        resources: [
          'claims:exposure',
          'claims:party',
          'claims:reserve',
          'claims:payment',
          'claims:recovery',
          'claims:audit-log',
          'claims:transaction',
        ],
      },
      {
        sid: 'attachments',
        effect: 'allow',
        actions: ['read', 'create', 'update', 'delete'],
        resources: ['claims:attachment'],
      },
      {
        sid: 'assignments',
        effect: 'allow',
        actions: ['read', 'create', 'update', 'delete', 'assign'],
        resources: ['claims:assignment'],
      },
    ],
  });

  const claimant = [{ claimant_name: 'Pat Neighbor', coverage: 'Liability', description: 'Dent' }];
  const claimIn = async (state: string) => {
    const id = await created(
      await adjuster(
        'POST',
        '/claims/',
        doc('claim', {
          loss_description: 'Hail',
          date_of_loss: '2026-10-01',
          loss_location: { line1: '1 Elm St', city: 'Town', state, zip: '75001' },
          claimants: claimant,
        }),
      ),
    );
    const submitted = await adjuster('POST', `/claims/${id}/submit/`, { data: { type: 'claim', id, attributes: {} } });
    expect(submitted.status).toBe(200);
    return id;
  };
  ids.texas = await claimIn(STATE);
  ids.colorado = await claimIn('CO');

  const roles = (await (await adjuster('GET', '/integrations/users/roles/')).json()) as { data: Row[] };
  const roleId = Number(roles.data.find((r) => r.attributes.name === 'Supervisor')!.id);
  for (const [name, claimId] of [
    ['texas', ids.texas],
    ['colorado', ids.colorado],
  ] as const) {
    const exposures = (await (await adjuster('GET', `/exposures/?filter[claim_id]=${claimId}`)).json()) as {
      data: Row[];
    };
    const exposureId = exposures.data[0]!.id;
    ids[`${name}Exposure`] = exposureId;
    const number = String(
      ((await (await adjuster('GET', `/claims/${claimId}/`)).json()) as { data: Row }).data.attributes.number,
    );
    numbers[name] = number;
    ids[`${name}Folder`] = await created(
      await adjuster(
        'POST',
        '/integrations/attachments/',
        doc('attachment-folder', { name: 'Photos', reference_id: number }),
      ),
    );
    ids[`${name}File`] = await created(
      await adjuster(
        'POST',
        '/integrations/attachments/',
        doc('attachment', {
          name: `${name}.txt`,
          mime_type: 'text/plain',
          content: Buffer.from(name).toString('base64'),
          folder_id: Number(ids[`${name}Folder`]),
        }),
      ),
    );
    ids[`${name}Assignment`] = await created(
      await adjuster(
        'POST',
        '/integrations/users/claim-assignments/',
        JSON.stringify({ username: 'admin@atrium.test', role_id: roleId, claim_id: Number(claimId) }),
        plainJson,
      ),
    );
    ids[`${name}ExposureAssignment`] = await created(
      await adjuster(
        'POST',
        '/integrations/users/exposure-assignments/',
        JSON.stringify({ username: 'admin@atrium.test', role_id: roleId, exposure_id: Number(exposureId) }),
        plainJson,
      ),
    );
    ids[`${name}Event`] = await created(
      await adjuster(
        'POST',
        '/claim-events/',
        doc(
          'claim-event',
          { event_type: 'note' },
          { relationships: { claim: { data: { type: 'claim', id: claimId } } } },
        ),
      ),
    );
    const exposure = { exposure: { data: { type: 'exposures', id: exposureId } } };
    ids[`${name}Reserve`] = await created(
      await adjuster('POST', '/reserves/', {
        data: {
          type: 'reserves',
          attributes: { new_amount: '500.00', reserve_category: 'indemnity' },
          relationships: exposure,
        },
      }),
    );
    ids[`${name}Payment`] = await created(
      await adjuster('POST', '/payments/', {
        data: {
          type: 'payments',
          attributes: { amount: '20.00', reserve_category: 'indemnity' },
          relationships: exposure,
        },
      }),
    );
  }

  const underwriter = await server.as(USER);
  reader = (method, path, body, headers = {}) =>
    underwriter(method, path, body, { 'x-effective-role': ROLE, ...headers });
  readable = new Set((await allPages(reader, '/claims/')).data.map((c) => c.id));
  expect(readable).toContain(ids.texas);
  expect(readable).not.toContain(ids.colorado);
}, 240_000);
afterAll(async () => server?.close());

describe('rows of claims the caller may not read', () => {
  it('are left out of the claim assignments', async () => {
    const list = (caller: Caller) => allAssignments(caller, '/integrations/users/claim-assignments/');
    await expectScoped(list, (r) => String(r.attributes.claim_id), [ids.texasAssignment], [ids.coloradoAssignment]);
    const ofHidden = await reader('GET', `/integrations/users/claim-assignments/?claim_id=${ids.colorado}`);
    expect(((await ofHidden.json()) as { meta: { count: number } }).meta.count).toBe(0);
  });

  it('are left out of the exposure assignments', async () => {
    const exposures = (await allPages(adjuster, '/exposures/')).data;
    const claimOfExposure = new Map(exposures.map((e) => [e.id, relationshipId(e, 'claim')!]));
    const list = (caller: Caller) => allAssignments(caller, '/integrations/users/exposure-assignments/');
    await expectScoped(
      list,
      (r) => claimOfExposure.get(String(r.attributes.exposure_id))!,
      [ids.texasExposureAssignment],
      [ids.coloradoExposureAssignment],
    );
    const ofHidden = await reader(
      'GET',
      `/integrations/users/exposure-assignments/?exposure_id=${ids.coloradoExposure}`,
    );
    expect(((await ofHidden.json()) as { meta: { count: number } }).meta.count).toBe(0);
  });

  it('cannot be deleted: an assignment on a hidden claim is 404, as if missing', async () => {
    for (const path of [
      `/integrations/users/claim-assignments/${ids.coloradoAssignment}/`,
      `/integrations/users/exposure-assignments/${ids.coloradoExposureAssignment}/`,
    ]) {
      expect((await reader('DELETE', path)).status, path).toBe(404);
    }
    const still = await allAssignments(adjuster, '/integrations/users/claim-assignments/');
    expect(still.data.map((r) => r.id)).toContain(ids.coloradoAssignment);
    const stillExposure = await allAssignments(adjuster, '/integrations/users/exposure-assignments/');
    expect(stillExposure.data.map((r) => r.id)).toContain(ids.coloradoExposureAssignment);
  });

  it('are left out of parties, claim events and summary claimants, and are 404 by id', async () => {
    const claimOf = (r: Row) => relationshipId(r, 'claim') ?? String(r.attributes.claim_id);
    const texasParties = (await allPages(adjuster, `/parties/?filter[claim_id]=${ids.texas}`)).data.map((p) => p.id);
    const coloradoParties = (await allPages(adjuster, `/parties/?filter[claim_id]=${ids.colorado}`)).data.map(
      (p) => p.id,
    );
    expect(coloradoParties.length).toBeGreaterThan(0);
    await expectScoped((c) => allPages(c, '/parties/'), claimOf, texasParties, coloradoParties);
    await expectScoped((c) => allPages(c, '/claim-events/'), claimOf, [ids.texasEvent], [ids.coloradoEvent]);
    const claimants = (claimId: string) =>
      allPages(adjuster, `/parties/?filter[claim_id]=${claimId}&filter[role]=claimant`).then((l) =>
        l.data.map((p) => p.id),
      );
    await expectScoped(
      (c) => allPages(c, '/summary-claimants/'),
      claimOf,
      await claimants(ids.texas),
      await claimants(ids.colorado),
    );

    expect((await reader('GET', `/claim-events/${ids.texasEvent}/`)).status).toBe(200);
    const hidden = await reader('GET', `/claim-events/${ids.coloradoEvent}/`);
    expect(hidden.status).toBe(404);
    expect(await detailOf(hidden)).toBe(`claim-event ${ids.coloradoEvent} not found.`);
    expect((await reader('GET', `/parties/${coloradoParties[0]}/`)).status).toBe(404);
    expect((await adjuster('GET', `/parties/${coloradoParties[0]}/`)).status).toBe(200);
  });

  it('cannot be changed, deleted or created on a hidden claim', async () => {
    const event = { data: { type: 'claim-event', id: ids.coloradoEvent, attributes: { description: 'seen' } } };
    expect((await reader('PATCH', `/claim-events/${ids.coloradoEvent}/`, event)).status).toBe(404);
    expect((await reader('DELETE', `/claim-events/${ids.coloradoEvent}/`)).status).toBe(404);
    expect((await adjuster('GET', `/claim-events/${ids.coloradoEvent}/`)).status).toBe(200);

    const onClaim = (id: string) =>
      doc('claim-event', { event_type: 'note' }, { relationships: { claim: { data: { type: 'claim', id } } } });
    const refused = await reader('POST', '/claim-events/', onClaim(ids.colorado));
    expect(refused.status).toBe(400);
    expect(await pointersOf(refused)).toEqual(['/data/relationships/claim/data/id']);
    // A claim that does not exist at all gets the very same answer.
    const missing = await reader('POST', '/claim-events/', onClaim('2147483000'));
    expect(missing.status).toBe(400);
    expect(await detailOf(missing)).toBe('Claim 2147483000 not found.');
    const moved = await reader('PATCH', `/claim-events/${ids.texasEvent}/`, {
      data: {
        type: 'claim-event',
        id: ids.texasEvent,
        relationships: { claim: { data: { type: 'claim', id: ids.colorado } } },
      },
    });
    expect(moved.status).toBe(400);
    expect((await reader('POST', '/claim-events/', onClaim(ids.texas))).status).toBe(201);
  });

  it('are left out of reserves and payments (both payment paths), and are 404 by id', async () => {
    const claimOf = (r: Row) => relationshipId(r, 'claim') ?? String(r.attributes.claim_id);
    await expectScoped((c) => allPages(c, '/reserves/'), claimOf, [ids.texasReserve], [ids.coloradoReserve]);
    await expectScoped((c) => allPages(c, '/payments/'), claimOf, [ids.texasPayment], [ids.coloradoPayment]);
    await expectScoped((c) => allPages(c, '/claims/payments/'), claimOf, [ids.texasPayment], [ids.coloradoPayment]);
    const ofHidden = await reader('GET', `/reserves/?filter[claim]=${ids.colorado}`);
    expect(((await ofHidden.json()) as { meta: { count: number } }).meta.count).toBe(0);

    expect((await reader('GET', `/reserves/${ids.texasReserve}/`)).status).toBe(200);
    expect((await reader('GET', `/reserves/${ids.coloradoReserve}/`)).status).toBe(404);
    expect((await reader('GET', `/payments/${ids.coloradoPayment}/`)).status).toBe(404);
    expect((await adjuster('GET', `/payments/${ids.coloradoPayment}/`)).status).toBe(200);
  });

  it('are left out of transactions and approvals, and their financials are 404', async () => {
    const claimOf = (r: Row) => relationshipId(r, 'claim') ?? String(r.attributes.claim_id);
    await expectScoped(
      (c) => allPages(c, '/transactions/'),
      claimOf,
      [ids.texasReserve, ids.texasPayment],
      [ids.coloradoReserve, ids.coloradoPayment],
    );
    expect((await reader('GET', `/transactions/${ids.texasPayment}/`)).status).toBe(200);
    expect((await reader('GET', `/transactions/${ids.coloradoPayment}/`)).status).toBe(404);
    const approvals = (await allPages(reader, '/approvals/')).data;
    expect(approvals.every((r) => readable.has(claimOf(r)))).toBe(true);

    expect((await reader('GET', `/claims/${ids.texas}/financials/`)).status).toBe(200);
    expect((await reader('GET', `/claims/${ids.colorado}/financials/`)).status).toBe(404);
    expect((await adjuster('GET', `/claims/${ids.colorado}/financials/`)).status).toBe(200);
    expect((await reader('GET', `/exposures/${ids.texasExposure}/financials/`)).status).toBe(200);
    expect((await reader('GET', `/exposures/${ids.coloradoExposure}/financials/`)).status).toBe(404);
  });

  it('hide the folders and files of hidden claims: 404 to read or change, no uploads into them', async () => {
    const folder = (id: string) => reader('GET', `/integrations/attachments/${id}/?list_view=true`);
    expect((await folder(ids.texasFolder)).status).toBe(200);
    const hidden = await folder(ids.coloradoFolder);
    expect(hidden.status).toBe(404);
    expect(await detailOf(hidden)).toBe('Failed to get attachments.');
    expect((await reader('GET', `/integrations/attachments/${ids.coloradoFolder}/folder-tree/`)).status).toBe(404);
    const content = (caller: Caller, id: string) =>
      caller('GET', `/integrations/attachments/${id}/content/`, undefined, { accept: '*/*' });
    expect(await (await content(reader, ids.texasFile)).text()).toBe('texas');
    expect((await content(reader, ids.coloradoFile)).status).toBe(404);
    const rename = doc('attachment', { name: 'renamed.txt' }, { id: ids.coloradoFile });
    expect((await reader('PATCH', `/integrations/attachments/${ids.coloradoFile}/`, rename)).status).toBe(404);
    expect((await reader('DELETE', `/integrations/attachments/${ids.coloradoFile}/`)).status).toBe(404);
    expect((await content(adjuster, ids.coloradoFile)).status).toBe(200);

    const ticket = await reader(
      'POST',
      '/integrations/attachments/upload-tickets/',
      doc('attachment-upload', {
        name: 'a.txt',
        mime_type: 'text/plain',
        size: 1,
        folder_id: Number(ids.coloradoFolder),
      }),
    );
    expect(ticket.status).toBe(400);
    expect(await pointersOf(ticket)).toEqual(['/data/attributes/folder_id']);
    const newFolder = (reference: string) =>
      reader('POST', '/integrations/attachments/', doc('attachment-folder', { name: 'Mine', reference_id: reference }));
    const refused = await newFolder(numbers.colorado);
    expect(refused.status).toBe(400);
    expect(await pointersOf(refused)).toEqual(['/data/attributes/reference_id']);
    expect((await newFolder(numbers.texas)).status).toBe(201);
    // A reference that names no claim is not about a claim: no claim to hide.
    expect((await newFolder('POLICY-DOCS-1')).status).toBe(201);
  });

  it('are left out of the audit log, which keeps entries about no claim', async () => {
    // Removing an exposure assignment writes an entry that names the exposure's claim.
    const removed = `/integrations/users/exposure-assignments/${ids.coloradoExposureAssignment}/`;
    expect((await adjuster('DELETE', removed)).status).toBe(204);
    const claimOf = (r: Row) => (r.attributes.claim_id === null ? null : String(r.attributes.claim_id));
    const entries = (claimId: string) =>
      allPages(adjuster, `/audit-log/?filter[claim_id]=${claimId}`).then((l) => l.data.map((e) => e.id));
    await expectScoped(
      (c) => allPages(c, '/audit-log/'),
      claimOf,
      await entries(ids.texas),
      await entries(ids.colorado),
    );
    const ofHidden = await reader('GET', `/audit-log/?filter[claim_id]=${ids.colorado}`);
    expect(((await ofHidden.json()) as { meta: { count: number } }).meta.count).toBe(0);
    const unassign = `/audit-log/?filter[entity_type]=exposure-assignment&filter[entity_id]=${ids.coloradoExposureAssignment}`;
    const entriesOfRemoved = (await allPages(adjuster, unassign)).data;
    expect(entriesOfRemoved.map((e) => [e.attributes.action, e.attributes.claim_id])).toEqual([
      ['unassign', Number(ids.colorado)],
      ['assign', Number(ids.colorado)],
    ]);
    expect((await allPages(reader, unassign)).data).toEqual([]);
    // Entries about no claim (a lookup's, here) stay in the reader's log.
    await created(await adjuster('POST', '/timezones/', doc('timezone', { name: 'Row-Filter/Test', label: 'Test' })));
    const noClaim = (await allPages(reader, '/audit-log/')).data.filter((e) => e.attributes.claim_id === null);
    expect(noClaim.length).toBeGreaterThan(0);
    expect(noClaim.length).toBe(
      (await allPages(adjuster, '/audit-log/')).data.filter((e) => e.attributes.claim_id === null).length,
    );
  });
});
