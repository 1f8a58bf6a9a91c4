/**
 * Support tickets (spec "Support ticket: url, subject, description, critical, includedContactEmails,
 * fileAttachments"), shared by the server and the web half: the messages, limits and the shape the
 * outstanding-tickets and Support Tools pages read.
 */
export const SUPPORT_TICKET_SUCCESS = 'Success! Your ticket was created.';
export const SUPPORT_TICKET_FAILURE = 'Failed to submit support ticket. Please try again later.';
export const SUPPORT_TICKET_MISSING = "We're sorry, but some information is missing.";
export const ONLY_IMAGES = 'Only image files (PNG, JPEG, GIF or WebP) can be attached.';
/** Spec: contact e-mail search starts at 3 characters. */
export const CONTACT_EMAIL_SEARCH_MIN = 3;

export const SUPPORT_LIMITS = {
  subjectLength: 255,
  descriptionLength: 20_000,
  attachments: 10,
  /** Per image. */
  attachmentBytes: 5 * 1024 * 1024,
  includedEmails: 20,
} as const;

export type TicketStatus = 'open' | 'closed';

export interface TicketAttachment {
  id: number;
  filename: string;
  content_type: string;
  size: number;
}

export interface SupportTicket {
  id: number;
  subject: string;
  description: string;
  critical: boolean;
  url: string | null;
  included_contact_emails: string[];
  status: TicketStatus;
  submitted_by: { username: string; name: string };
  created_at: string;
  closed_at: string | null;
  attachments: TicketAttachment[];
  /** The mail to the support desk: queued, sending, sent or failed; note says why it waits or failed. */
  mail: { status: string; note: string | null } | null;
}
