/**
 * Support tickets go to the classic gateway (spec: POST /gateway?file=more.oops_issue_tracker&
 * method=submit_issue, form fields subject, description, ccs, url, stop flag, attachments), which
 * the server answers at /api/gateway (the support module, plugins/support).
 */
export const SUPPORT_TICKET_SUCCESS = 'Success! Your ticket was created.';
export const SUPPORT_TICKET_FAILURE = 'Failed to submit support ticket. Please try again later.';
export const SUPPORT_TICKET_MISSING = "We're sorry, but some information is missing.";
export const SUPPORT_TICKET_PATH = '/api/gateway?file=more.oops_issue_tracker&method=submit_issue';
export const SUGGEST_EMAILS_PATH = '/api/gateway?file=more.ajax_suggest&method=ajaxSuggestEmails';
/** Spec: the contact e-mail search starts at 3 characters. */
export const EMAIL_SEARCH_MIN_LENGTH = 3;
/** Only images may be attached (spec); the server checks the bytes again. */
export const SUPPORT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

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

/** Field errors before sending: subject and description are required, attachments images only. */
export function supportTicketErrors(
  ticket: SupportTicket,
): Partial<Record<'subject' | 'description' | 'attachments', string>> {
  const errors: Partial<Record<'subject' | 'description' | 'attachments', string>> = {};
  if (!ticket.subject.trim()) errors.subject = 'This field is required.';
  if (!ticket.description.trim()) errors.description = 'This field is required.';
  if (ticket.attachments.some((file) => !(SUPPORT_IMAGE_TYPES as readonly string[]).includes(file.type))) {
    errors.attachments = 'Only image files (PNG, JPEG, GIF or WebP) can be attached.';
  }
  return errors;
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

/** Contacts' e-mail addresses containing the query (from 3 characters); none when the search fails. */
export async function suggestEmails(
  query: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
  doFetch: typeof fetch = fetch,
): Promise<{ name: string; email: string }[]> {
  if (query.trim().length < EMAIL_SEARCH_MIN_LENGTH) return [];
  try {
    const response = await doFetch(SUGGEST_EMAILS_PATH, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: query.trim() }),
      signal,
    });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: { name: string; email: string }[] };
    return Array.isArray(body.data) ? body.data : [];
  } catch {
    return [];
  }
}
