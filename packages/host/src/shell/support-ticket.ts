/**
 * Support tickets go to the classic gateway (spec: POST /gateway?file=more.oops_issue_tracker&
 * method=submit_issue, form fields subject, description, ccs, url, stop flag, attachments).
 */
export const SUPPORT_TICKET_SUCCESS = 'Success! Your ticket was created.';
export const SUPPORT_TICKET_FAILURE = 'Failed to submit support ticket. Please try again later.';
export const SUPPORT_TICKET_PATH = '/gateway?file=more.oops_issue_tracker&method=submit_issue';

export interface SupportTicket {
  subject: string;
  description: string;
  /** Comma-separated e-mail addresses to copy. */
  ccs: string;
  /** The page the user was on. */
  url: string;
  /** The problem stops the user from working. */
  stop: boolean;
  attachments: readonly File[];
}

export async function submitSupportTicket(
  ticket: SupportTicket,
  headers: Record<string, string>,
  doFetch: typeof fetch = fetch,
): Promise<void> {
  const form = new FormData();
  form.set('subject', ticket.subject);
  form.set('description', ticket.description);
  form.set('ccs', ticket.ccs);
  form.set('url', ticket.url);
  form.set('stop', ticket.stop ? 'true' : 'false');
  for (const file of ticket.attachments) form.append('attachments', file, file.name);
  const response = await doFetch(SUPPORT_TICKET_PATH, { method: 'POST', headers, body: form });
  if (!response.ok) throw new Error(SUPPORT_TICKET_FAILURE);
}
