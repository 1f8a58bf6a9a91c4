import { describe, expect, it, vi } from 'vitest';
import { submitSupportTicket, SUPPORT_TICKET_FAILURE, SUPPORT_TICKET_PATH } from './support-ticket.js';

const ticket = {
  subject: 'Cannot print declarations',
  description: 'The print button does nothing.',
  ccs: 'lead@example.com',
  url: 'https://portal.example.com/policies/7',
  stop: true,
  attachments: [new File(['log'], 'console.txt', { type: 'text/plain' })],
};

describe('support ticket', () => {
  it('posts the form fields the classic gateway expects, with the caller headers', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    await submitSupportTicket(ticket, { Authorization: 'Bearer t' }, fetch);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe(SUPPORT_TICKET_PATH);
    expect(path).toBe('/gateway?file=more.oops_issue_tracker&method=submit_issue');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ Authorization: 'Bearer t' });
    const form = init.body as FormData;
    expect(form.get('subject')).toBe('Cannot print declarations');
    expect(form.get('description')).toBe('The print button does nothing.');
    expect(form.get('ccs')).toBe('lead@example.com');
    expect(form.get('url')).toBe('https://portal.example.com/policies/7');
    expect(form.get('stop')).toBe('true');
    expect((form.getAll('attachments')[0] as File).name).toBe('console.txt');
  });

  it("fails with the spec's message when the gateway refuses", async () => {
    const fetch = vi.fn(async () => new Response('boom', { status: 500 }));
    await expect(submitSupportTicket(ticket, {}, fetch)).rejects.toThrow(SUPPORT_TICKET_FAILURE);
  });
});
