import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';

/**
 * A real SMTP server on a loopback port for tests (smtp-server, by nodemailer's authors): start the
 * Atrium test server with `env: { SMTP_URL: mailServer.url }` and read what arrives, parsed by
 * mailparser. `refuseNext` makes the next deliveries fail with an SMTP reply, to test retries.
 */
export interface ReceivedMail {
  /** SMTP envelope: MAIL FROM and every RCPT TO (bcc recipients show only here). */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  raw: Buffer;
}

export interface TestMailServer {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first received mail (already here or still to come) the predicate accepts. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The next `count` messages are refused at DATA with this reply (e.g. 451 or 550). */
  refuseNext(count: number, responseCode: number, message: string): void;
  close(): Promise<void>;
}

export async function startTestMailServer(): Promise<TestMailServer> {
  const [{ SMTPServer }, { simpleParser }] = await Promise.all([import('smtp-server'), import('mailparser')]);
  const received: ReceivedMail[] = [];
  const waiters: { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  let refusals: { count: number; responseCode: number; message: string } | null = null;

  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered (no certificate to trust), no login needed.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals && refusals.count > 0) {
          refusals.count -= 1;
          const error = Object.assign(new Error(refusals.message), { responseCode: refusals.responseCode });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = {
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              parsed,
              raw,
            };
            received.push(mail);
            for (const waiter of [...waiters]) {
              if (waiter.predicate(mail)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(mail);
              }
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(predicate, timeoutMs = 20_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index < 0) return;
          waiters.splice(index, 1);
          reject(new Error(`No matching mail arrived within ${timeoutMs} ms (${received.length} arrived).`));
        }, timeoutMs).unref();
      });
    },
    refuseNext(count, responseCode, message) {
      refusals = { count, responseCode, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
