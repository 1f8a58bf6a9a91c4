import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, isPrivateAddress } from './url-guard.js';

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string;
  error: string | null;
}

/** Standard Webhooks' `webhook-signature`: one `v1,<base64>` per secret, space-separated (rotation). */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}

const EXCERPT = 1000;

/**
 * POSTs one signed message. The connection's DNS lookup refuses private addresses unless allowed
 * (an IP literal is checked here, since no lookup runs for it). Never throws: a network error, a
 * refused address or a timeout is a result without a status code. With tracing on, the http
 * instrumentation adds `traceparent`.
 */
export function sendWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
  timeoutMs: number;
}): Promise<SendResult> {
  const started = performance.now();
  const done = (partial: Omit<SendResult, 'latencyMs'>): SendResult => ({
    ...partial,
    latencyMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return resolve(done({ statusCode: null, responseExcerpt: '', error: 'The URL is not valid.' }));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      return resolve(
        done({ statusCode: null, responseExcerpt: '', error: `${host} is a private address, which is not allowed.` }),
      );
    }
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body),
          'user-agent': 'Atrium-Webhooks/1.0',
          ...options.headers,
        },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve(
            done({
              statusCode: response.statusCode ?? null,
              responseExcerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT),
              error: null,
            }),
          ),
        );
        response.on('error', (error) =>
          resolve(done({ statusCode: response.statusCode ?? null, responseExcerpt: '', error: error.message })),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${options.timeoutMs} ms.`)));
    request.on('error', (error) => resolve(done({ statusCode: null, responseExcerpt: '', error: error.message })));
    request.end(options.body);
  });
}
