// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import ClaimWorkspacePage from '../pages/claim-workspace-page.js';
import { claimsPartiesRoute } from '../routes.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: JSONAPI });
const doc = (data: unknown, headers: Record<string, string> = {}, status = 200) =>
  new Response(JSON.stringify({ data, meta: { count: Array.isArray(data) ? data.length : 1, pages: 1 } }), {
    status,
    headers: { ...JSONAPI, ...headers },
  });
type Body = { data: { id?: string; attributes: Record<string, unknown>; relationships?: Record<string, unknown> } };

const jo = {
  type: 'contact',
  id: '21',
  attributes: {
    kind: 'person',
    first_name: 'Jo',
    last_name: 'Rivera',
    name: 'Jo Rivera',
    email: 'jo.rivera@example.test',
    phone: '+1 555 0111',
    dob: '1970-01-02',
    has_ssn: true,
    ssn_last4: '1001',
    ssn: '***-**-1001',
    addresses: [{ type: 'Home', line1: '101 Main St', city: 'Chicago', state: 'IL', zip: '60601' }],
  },
  relationships: { gender: { data: { type: 'gender', id: '31' } } },
};

function contactsApis(options: { allowDuplicates: boolean; parties: unknown[]; fullSsn?: boolean }) {
  return {
    'GET /claims/claims/by-number/:number/': () =>
      doc({ type: 'claim', id: '7', attributes: { number: 'CLM-7', status: 'open' } }, { etag: '"c7"' }),
    'GET /claims/parties/': () => doc(options.parties),
    'POST /claims/parties/': ({ body }: { body: unknown }) => {
      const created = { type: 'party', id: '99', attributes: (body as Body).data.attributes };
      options.parties.push(created);
      return doc(created, {}, 201);
    },
    'GET /claims/claim-party-roles/': () =>
      doc([
        { type: 'claim-party-role', id: '41', attributes: { name: 'claimant', label: 'Claimant' } },
        { type: 'claim-party-role', id: '42', attributes: { name: 'witness', label: 'Witness' } },
      ]),
    'GET /claims/integrations/contacts/': () => doc([jo]),
    'GET /claims/integrations/contacts/genders/': () =>
      doc([
        { type: 'gender', id: '31', attributes: { name: 'Female', label: 'Female' } },
        { type: 'gender', id: '32', attributes: { name: 'Male', label: 'Male' } },
      ]),
    'GET /claims/integrations/contacts/address-types/': () =>
      doc([{ type: 'address-type', id: '51', attributes: { name: 'Home', label: 'Home' } }]),
    'GET /claims/integrations/contacts/address-by-zip/': ({ query }: { query: URLSearchParams }) =>
      query.get('zip') === '60601'
        ? doc({ type: 'address', id: '60601', attributes: { city: 'Chicago', county: 'Cook', state: 'IL' } })
        : json({ errors: [{ status: '404', detail: `ZIP code ${query.get('zip')} not found.` }] }, 404),
    'GET /claims/integrations/contacts/validate-ssn/': ({ query }: { query: URLSearchParams }) => {
      const ssn = query.get('ssn') ?? '';
      const duplicate = ssn === '123-45-1001';
      return json({
        meta: {
          valid: /^\d{3}-?\d{2}-?\d{4}$/.test(ssn) && !ssn.startsWith('000'),
          duplicate,
          allowed: !duplicate || options.allowDuplicates,
        },
      });
    },
    'GET /claims/integrations/contacts/allow-duplicate-ssn/': () =>
      json({ meta: { allow_duplicate_ssn: options.allowDuplicates } }),
    // After the static paths: ':id' would match 'genders' too.
    // The server answers one contact's SSN in full to someone who may read SSNs, masked otherwise.
    'GET /claims/integrations/contacts/:id/': () =>
      doc(options.fullSsn ? { ...jo, attributes: { ...jo.attributes, ssn: '123-45-1001' } } : jo),
    'GET /claims/integrations/contacts/:id/notes/': () =>
      doc([
        { type: 'contact-note', id: '1', attributes: { text: 'Prefers e-mail', created_by: 'adjuster@atrium.test' } },
      ]),
    'GET /claims/integrations/contacts/:id/relations/': () =>
      doc([
        {
          type: 'contact-relation',
          id: '2',
          attributes: {
            relation: 'Spouse',
            contact_id: 21,
            related_contact_id: 22,
            related_contact_name: 'Sam Rivera',
          },
        },
      ]),
    'POST /claims/integrations/contacts/': ({ body }: { body: unknown }) =>
      doc({ type: 'contact', id: '60', attributes: { ...(body as Body).data.attributes, ssn: undefined } }, {}, 201),
    'PUT /claims/integrations/contacts/:id/': ({ body }: { body: unknown }) =>
      doc({ ...jo, attributes: { ...jo.attributes, ...(body as Body).data.attributes } }),
  };
}

async function choose(
  host: { user: { click(e: Element): Promise<void> } },
  within0: HTMLElement,
  label: string,
  option: string,
) {
  const select = within(within0).getByRole('combobox', { name: label });
  await host.user.click(select);
  const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
  await host.user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

describe('parties tab: contacts', () => {
  beforeAll(preloadTestHost);

  it('searches contacts with the server filters, opens one with notes and relations, and adds it to the claim as a party', async () => {
    const parties = [
      { type: 'party', id: '5', attributes: { display_number: 2, name: 'Pat Insured', role: 'insured' } },
    ];
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsPartiesRoute.path,
      at: claimsPartiesRoute.link({ claimNumber: 'CLM-7' }),
      apis: contactsApis({ allowDuplicates: false, parties }),
    });
    await screen.findByRole('table', { name: 'Parties' });
    await host.user.type(screen.getByRole('textbox', { name: 'Contact name' }), 'rive');
    await host.user.type(screen.getByRole('textbox', { name: /Contact email/ }), 'jo');
    await waitFor(() =>
      expect(
        host.requests.some(
          (r) => r.path === '/api/claims/integrations/contacts/' && r.search.includes('filter%5Bname%5D=rive'),
        ),
      ).toBe(true),
    );
    // An e-mail search starts at 3 characters.
    expect(host.requests.some((r) => r.search.includes('filter%5Bemail%5D'))).toBe(false);

    const results = await screen.findByRole('table', { name: 'Contacts' });
    await host.user.click(within(results).getByRole('button', { name: 'Jo Rivera' }));
    const drawer = await screen.findByRole('dialog', { name: 'Contact Jo Rivera' });
    expect(await within(drawer).findByText('Prefers e-mail')).toBeTruthy();
    expect(await within(drawer).findByText('Sam Rivera')).toBeTruthy();
    expect(within(drawer).getByText('***-**-1001')).toBeTruthy();
    expect(await within(drawer).findByText('Female')).toBeTruthy();

    await choose(host, drawer, 'Role', 'Witness');
    await host.user.click(within(drawer).getByRole('button', { name: 'Add to claim' }));
    expect(await within(drawer).findByText('Party 3 on this claim (witness).')).toBeTruthy();
    const post = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/parties/');
    expect(post?.body).toEqual({
      data: {
        type: 'party',
        attributes: {
          name: 'Jo Rivera',
          display_number: 3,
          role: 'witness',
          contact_id: 21,
          phone: '+1 555 0111',
          email: 'jo.rivera@example.test',
        },
        relationships: { claim: { data: { type: 'claim', id: '7' } } },
      },
    });
  });

  it('shows the SSN in full when the server answers it so (someone who may read SSNs)', async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Supervisor',
      path: claimsPartiesRoute.path,
      at: claimsPartiesRoute.link({ claimNumber: 'CLM-7' }),
      apis: contactsApis({
        allowDuplicates: false,
        parties: [{ type: 'party', id: '5', attributes: { display_number: 1, name: 'Pat Insured', role: 'insured' } }],
        fullSsn: true,
      }),
    });
    await screen.findByRole('table', { name: 'Parties' });
    await host.user.type(screen.getByRole('textbox', { name: 'Contact name' }), 'rive');
    const results = await screen.findByRole('table', { name: 'Contacts' });
    await host.user.click(within(results).getByRole('button', { name: 'Jo Rivera' }));
    const drawer = await screen.findByRole('dialog', { name: 'Contact Jo Rivera' });
    expect(await within(drawer).findByText('123-45-1001')).toBeTruthy();
    expect(within(drawer).queryByText('***-**-1001')).toBeNull();
  });

  it('creates a contact: ZIP fills city and state, a taken SSN is refused before saving, then POSTs', async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsPartiesRoute.path,
      at: claimsPartiesRoute.link({ claimNumber: 'CLM-7' }),
      apis: contactsApis({ allowDuplicates: false, parties: [] }),
    });
    await host.user.click(await screen.findByRole('button', { name: 'New contact' }));
    const form = await screen.findByRole('dialog', { name: 'New contact' });
    await host.user.click(within(form).getByRole('button', { name: 'Save contact' }));
    expect(within(form).getByText('This field is required.')).toBeTruthy();

    await host.user.type(within(form).getByRole('textbox', { name: 'First name' }), 'Lee');
    await host.user.type(within(form).getByRole('textbox', { name: /Last name/ }), 'Okafor');
    await choose(host, form, 'Gender', 'Male');
    await choose(host, form, 'Address type', 'Home');
    await host.user.type(within(form).getByRole('textbox', { name: 'Address line 1' }), '5 Lake St');
    await host.user.type(within(form).getByRole('textbox', { name: 'ZIP' }), '60601');
    await waitFor(() =>
      expect((within(form).getByRole('textbox', { name: 'City' }) as HTMLInputElement).value).toBe('Chicago'),
    );
    expect((within(form).getByRole('textbox', { name: 'State' }) as HTMLInputElement).value).toBe('IL');

    const ssn = within(form).getByRole('textbox', { name: 'SSN' });
    await host.user.type(ssn, '123-45-1001');
    await host.user.click(within(form).getByRole('button', { name: 'Save contact' }));
    expect(await within(form).findByText('Another contact already has this SSN.')).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/claims/integrations/contacts/')).toBe(
      false,
    );

    await host.user.clear(ssn);
    await host.user.type(ssn, '123-45-2002');
    await host.user.click(within(form).getByRole('button', { name: 'Save contact' }));
    const details = await screen.findByRole('dialog', { name: 'Contact Jo Rivera' });
    expect(details).toBeTruthy();
    const post = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/integrations/contacts/');
    expect(post?.body).toEqual({
      data: {
        type: 'contact',
        attributes: {
          kind: 'person',
          first_name: 'Lee',
          last_name: 'Okafor',
          name: 'Lee Okafor',
          dob: null,
          email: '',
          phone: '',
          ssn: '123-45-2002',
          addresses: [{ type: 'Home', line1: '5 Lake St', city: 'Chicago', state: 'IL', zip: '60601' }],
        },
        relationships: { gender: { data: { type: 'gender', id: '32' } } },
      },
    });
  });

  it('asks to confirm a duplicate SSN when duplicates are allowed, and edits a contact with PUT', async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsPartiesRoute.path,
      at: claimsPartiesRoute.link({ claimNumber: 'CLM-7' }),
      apis: contactsApis({ allowDuplicates: true, parties: [] }),
    });
    const results = await screen.findByRole('table', { name: 'Contacts' });
    await host.user.click(within(results).getByRole('button', { name: 'Jo Rivera' }));
    const drawer = await screen.findByRole('dialog', { name: 'Contact Jo Rivera' });
    await host.user.click(await within(drawer).findByRole('button', { name: 'Edit contact' }));
    const form = await screen.findByRole('dialog', { name: 'Edit contact Jo Rivera' });
    const phone = within(form).getByRole('textbox', { name: 'Phone' });
    await host.user.clear(phone);
    await host.user.type(phone, '+1 555 9999');
    await host.user.type(within(form).getByRole('textbox', { name: 'SSN' }), '123-45-1001');
    await host.user.click(within(form).getByRole('button', { name: 'Save contact' }));
    const confirm = await within(form).findByRole('checkbox', { name: 'Save with the duplicate SSN' });
    expect((within(form).getByRole('button', { name: 'Save contact' }) as HTMLButtonElement).disabled).toBe(true);
    expect(host.requests.some((r) => r.method === 'PUT')).toBe(false);
    await host.user.click(confirm);
    await host.user.click(within(form).getByRole('button', { name: 'Save contact' }));
    await waitFor(() => expect(host.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = host.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/claims/integrations/contacts/21/');
    expect(put?.body).toMatchObject({
      data: {
        type: 'contact',
        id: '21',
        attributes: { phone: '+1 555 9999', ssn: '123-45-1001', addresses: [{ zip: '60601', city: 'Chicago' }] },
        relationships: { gender: { data: { type: 'gender', id: '31' } } },
      },
    });
  });
});
