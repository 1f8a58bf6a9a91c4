import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, StorageLimitError, type StoredObject } from '@atrium/sdk/server';
import { LOCAL_UPLOAD_PATH, type LocalDiskStorage } from './local-disk-storage.js';
import type { UploadTicketSigner } from './upload-ticket.js';

/** Room for the form's other fields and part headers around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const uploadedResponse = z.object({
  key: z.string(),
  size: z.number(),
  sha256: z.string(),
  content_type: z.string(),
});

/**
 * The local driver's answer to an upload ticket: `POST /api/storage/uploads/`, multipart/form-data
 * with the ticket's fields first and the file last (part `file`), no Authorization header — the
 * ticket's signature is the authorisation, so the route is public. The file streams to disk under
 * the ticket's size limit; nothing is kept when it is refused. A ticket uploads once: a key that
 * already holds an object is refused, so a leaked ticket cannot replace a registered file.
 */
export async function registerStorageRoutes(
  app: FastifyInstance,
  storage: LocalDiskStorage,
  signer: UploadTicketSigner,
): Promise<void> {
  await app.register(async (scope) => {
    // The handler reads the raw request itself, streaming; Fastify must not buffer the body.
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    scope.post(
      LOCAL_UPLOAD_PATH,
      {
        config: { access: 'public' },
        schema: {
          summary:
            'Direct upload for a ticket from ObjectStorage.createUploadTicket (local driver): the ticket fields, then the file. 201 with key, size, sha256; 403 bad or expired ticket; 413 too large.',
          tags: ['core'],
          response: { 201: uploadedResponse },
        },
      },
      async (request, reply) => {
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > storage.maxUploadBytes + FORM_OVERHEAD_BYTES) {
          reply.header('connection', 'close');
          throw new StorageLimitError(storage.maxUploadBytes);
        }
        const stored = await receiveUpload(request.raw, request.headers, storage, signer);
        return reply.status(201).send({
          key: stored.key,
          size: stored.size,
          sha256: stored.sha256,
          content_type: stored.contentType,
        });
      },
    );
  });
}

function receiveUpload(
  raw: IncomingMessage,
  headers: IncomingHttpHeaders,
  storage: LocalDiskStorage,
  signer: UploadTicketSigner,
): Promise<StoredObject> {
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: headers as { 'content-type': string },
        limits: { files: 1, fields: 20, fieldSize: 16 * 1024, fileSize: storage.maxUploadBytes + 1 },
      });
    } catch {
      reject(new ApiError(400, 'The upload must be multipart/form-data with a boundary.'));
      return;
    }
    const fields: Record<string, string> = {};
    let stored: Promise<StoredObject> | null = null;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, file) => {
      if (name !== 'file' || stored) {
        file.resume();
        return;
      }
      stored = (async () => {
        // Fields after the file are not seen here: like S3, the ticket's fields come first.
        const policy = signer.verify(fields);
        if (await storage.head(policy.key)) {
          throw new ApiError(409, 'This upload ticket has already been used.', { code: 'upload_ticket_used' });
        }
        // put() may stop reading early (too large); whatever is left of the file is then drained so
        // that the form finishes and the answer can be sent.
        const body = new PassThrough();
        file.pipe(body);
        body.once('close', () => {
          file.unpipe(body);
          file.resume();
        });
        return storage.put(policy.key, body, {
          contentType: policy.content_type,
          maxBytes: policy.max_bytes,
          // Marked, so that an upload nobody registers can be found and swept later (docs/storage.md).
          viaUploadTicket: true,
        });
      })();
      stored.catch(() => file.resume());
    });
    parser.on('finish', () => {
      if (!stored) reject(new ApiError(400, "The upload has no file part named 'file'."));
      else stored.then(resolve, reject);
    });
    parser.on('error', () => reject(new ApiError(400, 'The upload form could not be read.')));
    raw.pipe(parser);
  });
}
