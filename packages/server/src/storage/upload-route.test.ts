import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListedObject } from '@atrium/sdk/server';
import { LocalDiskStorage } from './local-disk-storage.js';
import { registerStorageRoutes } from './upload-route.js';
import { UploadTicketSigner } from './upload-ticket.js';

let root: string;
let storage: LocalDiskStorage;
let app: FastifyInstance;

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'atrium-upload-'));
  const signer = new UploadTicketSigner(randomBytes(32));
  storage = new LocalDiskStorage(root, { maxUploadBytes: 1024, signer });
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerStorageRoutes(app, storage, signer);
  await app.ready();
});
afterEach(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the local upload route', () => {
  it('marks what a browser uploaded with a ticket, so that an unregistered upload can be swept', async () => {
    const ticket = await storage.createUploadTicket({ key: 'claims/attachments/t1', contentType: 'text/plain' });
    const form = new FormData();
    for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
    form.append('file', new Blob(['uploaded by a browser']), 'note.txt');
    const request = new Request('http://local/', { method: 'POST', body: form });
    const response = await app.inject({
      method: 'POST',
      url: ticket.url,
      headers: { 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(201);
    await storage.put('claims/attachments/p1', Buffer.from('stored by the server'), { contentType: 'text/plain' });

    const listed: ListedObject[] = [];
    for await (const object of storage.list('claims/attachments')) listed.push(object);
    expect(Object.fromEntries(listed.map((o) => [o.key, o.viaUploadTicket]))).toEqual({
      'claims/attachments/t1': true,
      'claims/attachments/p1': false,
    });
  });
});
