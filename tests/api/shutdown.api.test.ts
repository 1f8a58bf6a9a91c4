import { connect } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '@atrium/sdk/testing';

describe('shutdown', () => {
  it('cuts a connection whose request body never finishes once the grace period is over', async () => {
    const server = await startTestServer({ seed: 'never' });
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, 'connect');
    const socketClosed = once(socket, 'close');
    // A client that promised 1000 bytes and stopped after 10: the request is in flight for ever.
    socket.write(
      'POST /api/storage/uploads/ HTTP/1.1\r\nhost: localhost\r\ncontent-type: multipart/form-data; boundary=x\r\n' +
        'content-length: 1000\r\n\r\n--x\r\nabcde',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const warnings: string[] = [];
    const warn = server.atrium.log.warn.bind(server.atrium.log);
    server.atrium.log.warn = ((object: unknown, message?: string) => {
      if (message) warnings.push(message);
      return warn(object as object, message);
    }) as typeof server.atrium.log.warn;
    await server.atrium.close({ graceMs: 300 });
    await socketClosed;
    expect(warnings).toContain('requests still open at shutdown; closing their connections');
    await server.close();
    // Migrating a database from scratch on a loaded CI machine takes most of the default 30 s.
  }, 120_000);
});
