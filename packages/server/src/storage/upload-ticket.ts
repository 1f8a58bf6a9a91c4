import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@atrium/sdk/server';

/**
 * Upload tickets: what a browser may upload without its bearer token. The policy (key, content type,
 * size ceiling, expiry) travels base64url-encoded in the form's `policy` field with an HMAC-SHA256 of
 * it in `signature`; only a server holding the secret can make one, and any change to the policy
 * breaks the signature. Same idea as an S3 presigned POST policy.
 */
export interface UploadPolicy {
  key: string;
  content_type: string;
  max_bytes: number;
  /** Unix seconds. */
  expires_at: number;
}

export class UploadTicketSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (secret.length < 32) throw new Error('The upload ticket secret must be at least 32 bytes.');
  }

  /** The form fields of a ticket: key, Content-Type (informative), policy, signature. */
  sign(policy: UploadPolicy): Record<string, string> {
    const encoded = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64url');
    return {
      key: policy.key,
      'Content-Type': policy.content_type,
      policy: encoded,
      signature: this.mac(encoded),
    };
  }

  /** The policy of a genuine, unexpired ticket whose key field matches; otherwise a 4xx. */
  verify(fields: Record<string, string | undefined>): UploadPolicy {
    const { policy: encoded, signature, key } = fields;
    if (!encoded || !signature) {
      throw new ApiError(400, 'The upload form must carry the policy and signature fields of an upload ticket.', {
        code: 'missing_upload_ticket',
      });
    }
    const expected = Buffer.from(this.mac(encoded), 'hex');
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError(403, 'The upload signature does not match its policy.', { code: 'signature_mismatch' });
    }
    const policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
    if (this.now() / 1000 >= policy.expires_at) {
      throw new ApiError(403, 'The upload ticket has expired; ask for a new one.', { code: 'upload_ticket_expired' });
    }
    if (key !== policy.key) {
      throw new ApiError(403, 'The key field does not match the upload ticket.', { code: 'key_mismatch' });
    }
    return policy;
  }

  private mac(encoded: string): string {
    return createHmac('sha256', this.secret).update(encoded).digest('hex');
  }
}
