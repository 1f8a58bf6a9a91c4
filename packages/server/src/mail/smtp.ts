import nodemailer from 'nodemailer';

/** What the sender needs to put one outbox row on the wire. */
export interface OutgoingMail {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SmtpSender {
  send(mail: OutgoingMail): Promise<{ messageId: string; rejected: string[] }>;
  close(): void;
}

/**
 * Sends over SMTP with nodemailer, one connection per mail (mails are few and far between; a pool
 * would hold a connection open for nothing). Query parameters of SMTP_URL are nodemailer options,
 * e.g. `?requireTLS=true` or `?ignoreTLS=true`.
 */
export function createSmtpSender(smtpUrl: string): SmtpSender {
  // Timeouts short enough that a dead server fails the attempt (and it is retried) instead of
  // holding a worker for minutes; the URL's own parameters win over them.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: mail.from,
        to: mail.to,
        cc: mail.cc.length ? mail.cc : undefined,
        bcc: mail.bcc.length ? mail.bcc : undefined,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        text: mail.text ?? undefined,
        html: mail.html ?? undefined,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
      return {
        messageId: info.messageId,
        rejected: (info.rejected ?? []).map((r) => String(r)),
      };
    },
    close: () => transport.close(),
  };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/**
 * Whether trying again later may help: SMTP 4xx replies (greylisting, mailbox busy, too many
 * connections) and network failures are transient; 5xx replies (unknown mailbox, relay denied,
 * bad credentials) are final.
 */
export function isTransientSmtpError(error: unknown): boolean {
  const e = (error ?? {}) as SmtpError;
  if (typeof e.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return !['EENVELOPE', 'EMESSAGE', 'EAUTH', 'ETLS', 'EREQUIREDTLS'].includes(e.code ?? '');
}

/** The server's own words when it answered, else the error's message; one line, bounded. */
export function smtpErrorText(error: unknown): string {
  const e = (error ?? {}) as SmtpError;
  const text = (e.response || e.message || String(error)).replace(/\s+/g, ' ').trim();
  return text.length > 1000 ? `${text.slice(0, 997)}...` : text;
}
