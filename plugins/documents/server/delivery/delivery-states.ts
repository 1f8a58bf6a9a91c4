import type { MailRecord, MailStatus, ServerPluginContext } from '@atrium/sdk/server';

/**
 * Where a production document's paper copy is. A document starts `not_printed`; staff put it on the
 * print queue (`queued`), whoever prints the queue marks it `printed`, and a printed one can go back
 * on the queue to print it again. A queued one can be taken off the queue.
 */
export const PRINT_STATES = ['not_printed', 'queued', 'printed'] as const;
export type PrintState = (typeof PRINT_STATES)[number];

/** The moves allowed from each state (the route answers 409 in words for any other). */
export const PRINT_MOVES: Record<PrintState, readonly PrintState[]> = {
  not_printed: ['queued'],
  queued: ['printed', 'not_printed'],
  printed: ['queued'],
};

/** Each state in words, for messages (the screen has its own labels). */
export const PRINT_STATE_WORDS: Record<PrintState, string> = {
  not_printed: 'not printed',
  queued: 'on the print queue',
  printed: 'printed',
};

/** Why a move is refused, in words: `Production document 7 is printed; it cannot be taken off the print queue.` */
export function refusedMove(id: number, from: PrintState, to: PrintState): string {
  const action: Record<PrintState, string> = {
    queued: 'be put on the print queue',
    printed: 'be marked printed before it is on the print queue',
    not_printed: 'be taken off the print queue',
  };
  if (from === to) return `Production document ${id} is ${PRINT_STATE_WORDS[from]} already.`;
  return `Production document ${id} is ${PRINT_STATE_WORDS[from]}; it cannot ${action[to]}.`;
}

/** The last mails of documents, by mail id (one read each; a list has at most 200 documents). */
export async function mailStates(
  context: Pick<ServerPluginContext, 'mail'>,
  ids: (number | null)[],
): Promise<Map<number, MailRecord>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const found = await Promise.all(wanted.map((id) => context.mail.get(id)));
  return new Map(found.filter((m): m is MailRecord => m !== null).map((m) => [m.id, m]));
}

/**
 * A document's e-mail state, from the last mail that sent it: `email_state` is the mail's status
 * (queued, sending, sent, failed) or null when it was never e-mailed; `email_note` says why it is not
 * sent yet (no mail server configured, the SMTP server's refusal).
 */
export function emailStateOf(mails: Map<number, MailRecord>, lastMailId: number | null) {
  const mail = lastMailId === null ? undefined : mails.get(lastMailId);
  return {
    email_state: (mail?.status ?? null) as MailStatus | null,
    email_note: mail?.lastError ?? null,
    emailed_to: mail?.to ?? [],
    emailed_at: mail?.createdAt.toISOString() ?? null,
  };
}

/** A platform mail as the documents routes answer it. */
export function mailView(mail: MailRecord) {
  return {
    id: mail.id,
    to: mail.to,
    cc: mail.cc,
    subject: mail.subject,
    message: mail.text ?? '',
    attachments: mail.attachments.map((a) => a.filename),
    status: mail.status,
    last_error: mail.lastError,
    attempts: mail.attempts,
    created_by: mail.createdBy,
    created_at: mail.createdAt.toISOString(),
    sent_at: mail.sentAt?.toISOString() ?? null,
  };
}
