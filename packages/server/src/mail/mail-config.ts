/** The mail service's part of the configuration (SMTP_URL, MAIL_FROM …; docs/mail.md). */
export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; unset: mails wait in the outbox, unsent. */
  smtpUrl?: string;
  /** The From of every mail, e.g. `Atrium Claims <claims@carrier.example>`. */
  from: string;
  /** SMTP attempts per mail before it stays failed. */
  maxAttempts: number;
  /** Wait before the first retry; each further retry waits twice as long (at most an hour). */
  retryDelaySeconds: number;
}

export const DEFAULT_MAIL_FROM = 'Atrium <no-reply@atrium.invalid>';
