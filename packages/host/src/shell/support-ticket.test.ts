import { describe, expect, it, vi } from 'vitest';
import {
  submitSupportTicket,
  suggestEmails,
  supportTicketErrors,
  SUPPORT_TICKET_FAILURE,
  SUPPORT_TICKET_PATH,
} from './support-ticket.js';

const ticket = {
  subject: 'Cannot print declarations',
  description: 'The print button does nothing.',
  ccs: 'lead@example.com',
  url: 'https://portal.example.com/policies/7',
  stop: true,
  attachments: [new File(['png'], 'screen.png', { type: 'image/png' })],
};

describe('support ticket', () => {
  it('posts the form fields the classic gateway expects, with the caller headers', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    await submitSupportTicket(ticket, { Authorization: 'Bearer t' }, fetch);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe(SUPPORT_TICKET_PATH);
    expect(path).toBe('/api/gateway?file=more.oops_issue_tracker&method=submit_issue');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ Authorization: 'Bearer t' });
    const form = init.body as FormData;
    expect(form.get('subject')).toBe('Cannot print declarations');
    expect(form.get('description')).toBe('The print button does nothing.');
    expect(form.get('ccs')).toBe('lead@example.com');
    expect(form.get('url')).toBe('https://portal.example.com/policies/7');
    expect(form.get('stop')).toBe('true');
    expect((form.getAll('attachments')[0] as File).name).toBe('screen.png');
  });

  it("fails with the spec's message when the gateway refuses", async () => {
    const fetch = vi.fn(async () => new Response('boom', { status: 500 }));
    await expect(submitSupportTicket(ticket, {}, fetch)).rejects.toThrow(SUPPORT_TICKET_FAILURE);
  });

  it('requires subject and description and takes only images', () => {
    expect(supportTicketErrors(ticket)).toEqual({});
    expect(
      supportTicketErrors({
        ...ticket,
        subject: ' ',
        description: '',
        attachments: [new File(['x'], 'notes.txt', { type: 'text/plain' })],
      }),
    ).toEqual({
      subject: 'This field is required.',
      description: 'This field is required.',
      attachments: 'Only image files (PNG, JPEG, GIF or WebP) can be attached.',
    });
  });

  it('searches contact e-mails from 3 characters only', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ success: true, data: [{ name: 'Lee', email: 'lee@example.com' }] }),
    );
    expect(await suggestEmails('le', {}, undefined, fetch)).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
    expect(await suggestEmails('lee', {}, undefined, fetch)).toEqual([{ name: 'Lee', email: 'lee@example.com' }]);
  });
});
