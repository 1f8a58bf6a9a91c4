import { describe, expect, it } from 'vitest';
import { isMailAddress } from '@atrium/sdk/server';
import { ConfigError, loadConfig } from '../config.js';
import { DEFAULT_MAIL_FROM } from './mail-config.js';
import { isTransientSmtpError, smtpErrorText } from './smtp.js';

describe('mail configuration', () => {
  it('defaults to no SMTP server, the default sender, 5 attempts and 60 s', () => {
    expect(loadConfig({}).mail).toEqual({
      smtpUrl: undefined,
      from: DEFAULT_MAIL_FROM,
      maxAttempts: 5,
      retryDelaySeconds: 60,
    });
    expect(loadConfig({ SMTP_URL: '' }).mail.smtpUrl).toBeUndefined();
  });

  it('takes smtp:// and smtps:// URLs and a sender with or without a name', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      MAIL_FROM: 'Claims <claims@carrier.example>',
      MAIL_MAX_ATTEMPTS: '3',
      MAIL_RETRY_DELAY_SECONDS: '10',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      from: 'Claims <claims@carrier.example>',
      maxAttempts: 3,
      retryDelaySeconds: 10,
    });
    expect(loadConfig({ MAIL_FROM: 'claims@carrier.example' }).mail.from).toBe('claims@carrier.example');
  });

  it('refuses other URLs and senders, naming the variable', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL: must be an smtp/);
    expect(() => loadConfig({ MAIL_FROM: 'not a sender' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_MAX_ATTEMPTS: '0' })).toThrow(/MAIL_MAX_ATTEMPTS/);
  });
});

describe('addresses', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"])('accepts %s', (address) =>
    expect(isMailAddress(address)).toBe(true),
  );
  it.each([
    'plain',
    'a@localhost',
    'a b@example.com',
    'a@example.com, b@example.com',
    'Name <a@example.com>',
    'a@example.com\r\nBcc: b@example.com',
    '.a@example.com',
    'a..b@example.com',
    `${'x'.repeat(65)}@example.com`,
  ])('refuses %j', (address) => expect(isMailAddress(address)).toBe(false));
});

describe('SMTP failures', () => {
  it('retries 4xx replies and network failures, not 5xx replies or refused credentials', () => {
    expect(isTransientSmtpError({ responseCode: 451, code: 'EMESSAGE' })).toBe(true);
    expect(isTransientSmtpError({ responseCode: 421 })).toBe(true);
    expect(isTransientSmtpError({ code: 'ECONNECTION' })).toBe(true);
    expect(isTransientSmtpError({ code: 'ETIMEDOUT' })).toBe(true);
    expect(isTransientSmtpError({ responseCode: 550, code: 'EENVELOPE' })).toBe(false);
    expect(isTransientSmtpError({ responseCode: 535, code: 'EAUTH' })).toBe(false);
    expect(isTransientSmtpError({ code: 'EAUTH' })).toBe(false);
  });

  it("keeps the server's words on one line", () => {
    expect(smtpErrorText({ response: '451 4.7.1\r\n Greylisted', message: 'x' })).toBe('451 4.7.1 Greylisted');
    expect(smtpErrorText(new Error('connect ECONNREFUSED'))).toBe('connect ECONNREFUSED');
    expect(smtpErrorText({ message: 'y'.repeat(2000) })).toHaveLength(1000);
  });
});
