import { z } from 'zod';
import type { Queryable } from './define-server-plugin.js';

/**
 * The platform mail service as plugins see it (`context.mail`, docs/mail.md). A plugin enqueues a
 * message inside its own transaction — the mail exists only if the write it belongs to commits —
 * and a background job sends it over SMTP (`SMTP_URL`). Without a mail server the message stays in
 * the outbox, marked `not sent: no mail server configured`, and is sent once one is configured.
 */
export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** The outbox's note on mails kept while no SMTP server is configured (say so in the UI). */
export const MAIL_NOT_CONFIGURED = 'not sent: no mail server configured';

/** Limits checked at enqueue: one mail's recipients, subject, body and attachments. */
export const MAIL_LIMITS = {
  recipients: 50,
  subjectLength: 255,
  bodyLength: 100_000,
  attachments: 20,
  attachmentBytes: 20 * 1024 * 1024,
} as const;

/**
 * A plain address `local@domain.tld`: no display name, no spaces, commas, angle brackets or line
 * breaks (so nothing can be smuggled into a header), at most 254 characters, a dotted domain.
 */
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/;

export function isMailAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value) && !value.split('@')[0]!.split('.').includes('');
}

/** Zod schema of one address, for route bodies: a bad one is a 400 pointing at it. */
export const mailAddressSchema = z
  .string()
  .trim()
  .refine(isMailAddress, { message: 'Enter a valid e-mail address, like name@example.com.' });

/** A subject line: one line (line breaks would end the header), not empty. */
export const mailSubjectSchema = z
  .string()
  .trim()
  .min(1, 'Enter a subject.')
  .max(MAIL_LIMITS.subjectLength, `The subject is longer than ${MAIL_LIMITS.subjectLength} characters.`)
  .refine((value) => !/[\r\n]/.test(value), { message: 'The subject must be one line.' });

export interface MailAttachmentInput {
  filename: string;
  /** MIME type; defaults to application/octet-stream. */
  contentType?: string;
  content: Uint8Array;
  /** Where the file came from in the calling module, e.g. `attachment:12`. */
  reference?: string | null;
}

export interface MailMessage {
  /** The calling plugin's id: modules list their own mails by it. */
  plugin: string;
  /** What the mail is about in that plugin, e.g. a claim id. */
  reference?: string | null;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string | null;
  subject: string;
  /** At least one of text and html. */
  text?: string | null;
  html?: string | null;
  attachments?: MailAttachmentInput[];
  /** The user name of whoever sent it. */
  createdBy: string;
}

export interface MailAttachmentInfo {
  id: number;
  filename: string;
  contentType: string;
  size: number;
  reference: string | null;
}

export interface MailRecord {
  id: number;
  plugin: string;
  reference: string | null;
  from: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  attachments: MailAttachmentInfo[];
  status: MailStatus;
  /** SMTP attempts so far. */
  attempts: number;
  /** Why the last attempt failed, or MAIL_NOT_CONFIGURED while no server is configured. */
  lastError: string | null;
  /** When a failed mail is tried again; null when no retry is planned. */
  nextAttemptAt: Date | null;
  /** The Message-ID the SMTP server accepted. */
  providerMessageId: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
}

export interface MailService {
  /** True when SMTP_URL is set; otherwise mails wait in the outbox with MAIL_NOT_CONFIGURED. */
  readonly configured: boolean;
  /**
   * Validates the message (ApiError 400 with a pointer such as `/to/1` when it is not sendable),
   * stores it with its attachments in `tx` and schedules sending in the same transaction.
   */
  enqueue(tx: Queryable, message: MailMessage): Promise<MailRecord>;
  /** A plugin's mails, newest first; with `reference`, only those about it. */
  list(filter: { plugin: string; reference?: string | null }, db?: Queryable): Promise<MailRecord[]>;
  get(id: number, db?: Queryable): Promise<MailRecord | null>;
  /**
   * Sends a mail that was given up on (failed, no retry planned) again: queued, with a new job in
   * `tx`. ApiError 409 when the mail is not such a mail; null when there is no mail `id`.
   */
  retry(tx: Queryable, id: number): Promise<MailRecord | null>;
}
