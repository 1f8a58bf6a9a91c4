import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UploadTicketSigner, type UploadPolicy } from './upload-ticket.js';

const secret = randomBytes(32);
let now = Date.parse('2026-11-22T10:00:00Z');
const signer = new UploadTicketSigner(secret, () => now);
const policy: UploadPolicy = {
  key: 'claims/attachments/2026-11/abc',
  content_type: 'application/pdf',
  max_bytes: 1000,
  expires_at: Date.parse('2026-11-22T10:15:00Z') / 1000,
};

describe('upload ticket signing', () => {
  it('accepts its own unexpired ticket and returns the policy', () => {
    expect(signer.verify(signer.sign(policy))).toEqual(policy);
  });

  it('refuses an expired ticket with 403', () => {
    const fields = signer.sign(policy);
    now = Date.parse('2026-11-22T10:15:00Z');
    try {
      expect(() => signer.verify(fields)).toThrow(
        expect.objectContaining({ status: 403, message: 'The upload ticket has expired; ask for a new one.' }),
      );
    } finally {
      now = Date.parse('2026-11-22T10:00:00Z');
    }
  });

  it('refuses a tampered policy, a forged signature and another secret', () => {
    const fields = signer.sign(policy);
    const bigger = Buffer.from(JSON.stringify({ ...policy, max_bytes: 10 ** 9 })).toString('base64url');
    const mismatch = expect.objectContaining({
      status: 403,
      message: 'The upload signature does not match its policy.',
    });
    expect(() => signer.verify({ ...fields, policy: bigger })).toThrow(mismatch);
    expect(() => signer.verify({ ...fields, signature: '0'.repeat(64) })).toThrow(mismatch);
    expect(() => signer.verify({ ...fields, signature: 'not hex' })).toThrow(mismatch);
    expect(() => new UploadTicketSigner(randomBytes(32), () => now).verify(fields)).toThrow(mismatch);
  });

  it('refuses a key field that is not the policy key, and a form without a ticket', () => {
    const fields = signer.sign(policy);
    expect(() => signer.verify({ ...fields, key: 'claims/attachments/other' })).toThrow(
      expect.objectContaining({ status: 403, message: 'The key field does not match the upload ticket.' }),
    );
    expect(() => signer.verify({ key: policy.key })).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('needs a secret of at least 32 bytes', () => {
    expect(() => new UploadTicketSigner(Buffer.from('short'))).toThrow('at least 32 bytes');
  });
});
