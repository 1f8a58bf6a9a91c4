import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { messageOutbox } from './tables.js';

/**
 * How one-time codes reach people. The embedded default writes each message to the outbox table
 * (read by tests and the development outbox route); a production deployment plugs an SMS gateway
 * or mail service in behind the same interface through `createIdentityPlugin({ codeSender })`.
 */
export type CodePurpose = 'sms-mfa' | 'forgot-password' | 'verify-email' | 'verify-phone-number';

export interface CodeMessage {
  channel: 'sms' | 'email';
  destination: string;
  username: string;
  purpose: CodePurpose;
  code: string;
  /** Minutes the code stays valid, for the message text. */
  validMinutes: number;
}

export interface CodeSender {
  send(message: CodeMessage): Promise<void>;
}

export function renderCodeMessage(message: CodeMessage): { subject: string; body: string } {
  const expires = `It expires in ${message.validMinutes} minutes.`;
  switch (message.purpose) {
    case 'forgot-password':
      return { subject: 'Your password reset code', body: `Your password reset code is ${message.code}. ${expires}` };
    case 'verify-email':
    case 'verify-phone-number':
      return {
        subject: 'Your verification code',
        body: `Your Atrium verification code is ${message.code}. ${expires}`,
      };
    default:
      return { subject: 'Your sign-in code', body: `Your Atrium sign-in code is ${message.code}. ${expires}` };
  }
}

export class OutboxCodeSender implements CodeSender {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async send(message: CodeMessage): Promise<void> {
    const { subject, body } = renderCodeMessage(message);
    await this.db.insert(messageOutbox).values({
      channel: message.channel,
      destination: message.destination,
      username: message.username,
      purpose: message.purpose,
      subject,
      body,
      code: message.code,
      createdAt: this.clock.now(),
    });
  }
}
