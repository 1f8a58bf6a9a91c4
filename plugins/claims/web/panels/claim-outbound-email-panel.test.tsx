// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { setOpenClaim } from '../open-claim.js';
import ClaimOutboundEmailPanel from './claim-outbound-email-panel.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, meta: Record<string, unknown> = {}, status = 200) =>
  new Response(JSON.stringify({ data, meta }), { status, headers: JSONAPI });
const claim = { type: 'claim', id: '7', attributes: { number: 'CLM-7', status: 'open' } };
const mail = (id: string, attributes: Record<string, unknown>) => ({
  type: 'claim-email',
  id,
  attributes: {
    to: ['insured@example.test'],
    cc: [],
    bcc: [],
    body: 'Hello',
    attempts: 0,
    last_error: null,
    next_attempt_at: null,
    sent_at: null,
    created_by: 'adjuster@atrium.test',
    created_at: '2026-11-20T10:00:00.000Z',
    attachments: [],
    ...attributes,
  },
});

afterEach(() => setOpenClaim(null));

describe('Claim Outbound Email panel', () => {
  beforeAll(preloadTestHost);

  it('asks for an open claim first', async () => {
    await renderInTestHost(<ClaimOutboundEmailPanel />, { role: 'Claims Adjuster' });
    expect(await screen.findByText('Open a claim to see and send its e-mails.')).toBeTruthy();
  });

  it("lists the claim's mails with their delivery status and says when no mail server is configured", async () => {
    setOpenClaim('CLM-7');
    const again: string[] = [];
    const host = await renderInTestHost(<ClaimOutboundEmailPanel />, {
      role: 'Claims Adjuster',
      apis: {
        'GET /claims/claims/by-number/:number/': () => doc(claim),
        'POST /claims/claims/:id/emails/:emailId/send-again/': ({ params }) => {
          again.push(params.emailId!);
          return doc(mail(params.emailId!, { subject: 'Bounced', status: 'queued' }));
        },
        'GET /claims/claims/:id/emails/': () =>
          doc(
            [
              mail('4', { subject: 'Bounced', status: 'failed', attempts: 1, last_error: '550 Mailbox unavailable' }),
              mail('3', { subject: 'Waiting', status: 'queued', last_error: 'not sent: no mail server configured' }),
              mail('2', {
                subject: 'Refused',
                status: 'failed',
                attempts: 2,
                last_error: '451 Greylisted',
                next_attempt_at: '2026-11-20T10:05:00.000Z',
              }),
              mail('1', {
                subject: 'Delivered',
                status: 'sent',
                attempts: 1,
                sent_at: '2026-11-20T09:00:00.000Z',
                attachments: [{ filename: 'estimate.pdf', size: 10, attachment_id: '4' }],
              }),
            ],
            { mail_configured: false },
          ),
      },
    });
    expect(await screen.findByText('No mail server configured')).toBeTruthy();
    const waiting = screen.getByLabelText('E-mail Waiting');
    expect(within(waiting).getByText('Queued')).toBeTruthy();
    expect(within(waiting).getByText('Not sent: no mail server configured.')).toBeTruthy();
    const refused = screen.getByLabelText('E-mail Refused');
    expect(within(refused).getByText('Failed')).toBeTruthy();
    expect(within(refused).getByText(/451 Greylisted \(attempt 2\) Trying again at 2026-11-20 10:05/)).toBeTruthy();
    const delivered = screen.getByLabelText('E-mail Delivered');
    expect(within(delivered).getByText('Sent')).toBeTruthy();
    expect(within(delivered).getByText('Attachments: estimate.pdf')).toBeTruthy();

    // Only a mail given up on can be sent again; one with a retry planned waits for it.
    expect(within(refused).queryByRole('button', { name: 'Send again' })).toBeNull();
    const bounced = screen.getByLabelText('E-mail Bounced');
    expect(within(bounced).getByText('550 Mailbox unavailable (attempt 1)')).toBeTruthy();
    await host.user.click(within(bounced).getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(again).toEqual(['4']));
  });

  it('composes a mail to a suggested party with a claim attachment, searching contacts from the third character', async () => {
    setOpenClaim('CLM-7');
    const sent: unknown[] = [];
    const host = await renderInTestHost(<ClaimOutboundEmailPanel />, {
      role: 'Claims Adjuster',
      apis: {
        'GET /claims/claims/by-number/:number/': () => doc(claim),
        'GET /claims/claims/:id/emails/': () =>
          doc(
            sent.map((_, i) =>
              mail(String(i + 1), { subject: 'Your claim CLM-7', status: 'sent', sent_at: '2026-11-20T11:00:00Z' }),
            ),
            { mail_configured: true },
          ),
        'GET /claims/claims/:id/emails/recipients/': ({ query }) =>
          doc([
            { type: 'email-recipient', id: 'party:1', attributes: { email: 'insured@example.test', source: 'party' } },
            ...(query.get('filter[search]')
              ? [
                  {
                    type: 'email-recipient',
                    id: 'contact:1',
                    attributes: { email: 'broker@example.test', source: 'contact' },
                  },
                ]
              : []),
          ]),
        'GET /claims/claims/:id/emails/attachments/': () =>
          doc([{ type: 'attachment', id: '4', attributes: { name: 'estimate.pdf', size: 10, folder: 'Estimates' } }]),
        'POST /claims/claims/:id/emails/': ({ body }) => {
          sent.push(body);
          return doc(mail('1', { subject: 'Your claim CLM-7', status: 'queued' }), {}, 201);
        },
      },
    });
    expect(await screen.findByText('No e-mails sent from claim CLM-7 yet.')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Compose e-mail' }));
    const form = await screen.findByRole('form', { name: 'Compose e-mail' });

    // Two characters search no contacts; the third does (spec).
    const to = within(form).getByLabelText('To');
    await host.user.type(to, 'br');
    const searches = () =>
      host.requests.filter((r) => r.path.endsWith('/emails/recipients/') && r.search.includes('filter'));
    expect(searches()).toEqual([]);
    await host.user.type(to, 'o');
    await waitFor(() => expect(searches().length).toBeGreaterThan(0));
    expect(decodeURIComponent(searches()[0]!.search)).toContain('filter[search]=bro');
    await host.user.clear(to);

    // An invalid address is refused before anything is sent.
    await host.user.type(to, 'not-an-address{enter}');
    await host.user.type(within(form).getByRole('textbox', { name: 'Subject' }), 'Your claim CLM-7');
    await host.user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Please see the estimate.');
    await host.user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(within(form).getByRole('alert').textContent).toBe("'not-an-address' is not a valid e-mail address.");
    expect(sent).toEqual([]);

    await host.user.type(to, '{backspace}');
    await host.user.type(to, 'insured@example.test{enter}');
    const attachments = within(form).getByLabelText('Attachments');
    await host.user.click(attachments);
    const listbox = await waitFor(() => document.getElementById(attachments.getAttribute('aria-controls') ?? '')!);
    await host.user.click(
      await within(listbox).findByRole('option', { name: 'Estimates / estimate.pdf', hidden: true }),
    );
    await host.user.click(within(form).getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      data: {
        type: 'claim-email',
        attributes: {
          to: ['insured@example.test'],
          subject: 'Your claim CLM-7',
          body: 'Please see the estimate.',
          attachment_ids: ['4'],
        },
      },
    });
    expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/claims/claims/7/emails/')).toBe(true);
    const listed = await screen.findByLabelText('E-mail Your claim CLM-7');
    expect(within(listed).getByText('Sent')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Compose e-mail' })).toBeNull();
  });
});
