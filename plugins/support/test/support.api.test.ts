import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  signIn,
  startTestMailServer,
  startTestServer,
  type TestMailServer,
  type TestServer,
} from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import supportPlugin from '../server/plugin.js';

const SUBMIT = '/api/gateway?file=more.oops_issue_tracker&method=submit_issue';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

type Ticket = {
  id: number;
  subject: string;
  critical: boolean;
  status: string;
  included_contact_emails: string[];
  attachments: { id: number; filename: string; content_type: string }[];
  mail: { status: string } | null;
};

/** Support tickets: the classic gateway's submit_issue form, the mail to the desk, the ticket lists. */
describe('support tickets', () => {
  let server: TestServer;
  let smtp: TestMailServer;
  beforeAll(async () => {
    smtp = await startTestMailServer();
    process.env.ATRIUM_SUPPORT_EMAIL = 'desk@carrier.test';
    server = await startTestServer({
      plugins: [identityPlugin, accessPlugin, supportPlugin],
      env: { SMTP_URL: smtp.url, MAIL_RETRY_DELAY_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    delete process.env.ATRIUM_SUPPORT_EMAIL;
    await server?.close();
    await smtp?.close();
  });

  const submit = async (user: string, fields: Record<string, string>, files: [string, Buffer, string][] = []) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    for (const [name, bytes, type] of files)
      form.append('attachments', new Blob([new Uint8Array(bytes)], { type }), name);
    return server.fetch(SUBMIT, {
      method: 'POST',
      headers: { authorization: `Bearer ${await signIn(server, user)}` },
      body: form,
    });
  };

  it('stores a ticket with its image, mails it to the desk and lists it as outstanding', async () => {
    const response = await submit(
      'adjuster@atrium.test',
      {
        subject: 'Cannot print declarations',
        description: 'The print button does nothing.',
        ccs: 'lead@example.test, second@example.test',
        url: 'https://portal.example.test/claims/CLM-1001/details',
        stop: 'true',
      },
      [['screen.png', PNG, 'image/png']],
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { success: boolean; message: string; data: { id: number } };
    expect(answer).toMatchObject({ success: true, message: 'Success! Your ticket was created.' });

    const mail = await smtp.waitFor((m) => m.parsed.subject?.includes(`Support ticket ${answer.data.id}`) ?? false);
    expect(mail.parsed.subject).toBe(`[Critical] Support ticket ${answer.data.id}: Cannot print declarations`);
    expect([...mail.envelope.to].sort()).toEqual(['desk@carrier.test', 'lead@example.test', 'second@example.test']);
    expect(mail.parsed.attachments[0]!.content.equals(PNG)).toBe(true);

    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/support' });
    const mine = (await (await adjuster.get('/tickets/')).json()) as { results: Ticket[] };
    expect(mine.results).toMatchObject([
      {
        id: answer.data.id,
        critical: true,
        status: 'open',
        included_contact_emails: ['lead@example.test', 'second@example.test'],
        attachments: [{ filename: 'screen.png', content_type: 'image/png' }],
      },
    ]);
    const image = await adjuster.get(
      `/tickets/${answer.data.id}/attachments/${mine.results[0]!.attachments[0]!.id}/content/`,
    );
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    // Someone else's ticket is not theirs to see; administrators see everyone's.
    const underwriter = await as(server, 'underwriter@atrium.test', { base: '/api/support' });
    expect((await (await underwriter.get('/tickets/')).json()).count).toBe(0);
    expect((await underwriter.get(`/tickets/${answer.data.id}/`)).status).toBe(404);
    expect((await underwriter.get('/tickets/?scope=all')).status).toBe(403);
    const admin = await as(server, 'admin@atrium.test', { base: '/api/support' });
    const all = (await (await admin.get('/tickets/?scope=all')).json()) as { results: Ticket[] };
    expect(all.results.map((t) => t.id)).toContain(answer.data.id);

    expect(await (await adjuster.post(`/tickets/${answer.data.id}/close/`)).json()).toMatchObject({ status: 'closed' });
    expect((await (await adjuster.get('/tickets/')).json()).count).toBe(0);
  });

  it("refuses a ticket without subject or description with the spec's message, and non-images", async () => {
    const missing = await submit('adjuster@atrium.test', { subject: 'Only a subject' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain("We're sorry, but some information is missing.");
    const svg = await submit('adjuster@atrium.test', { subject: 'S', description: 'D' }, [
      ['x.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'],
    ]);
    expect(svg.status).toBe(400);
    expect(JSON.stringify(await svg.json())).toContain('/attachments/0');
    const badCc = await submit('adjuster@atrium.test', { subject: 'S', description: 'D', ccs: 'not-an-address' });
    expect(badCc.status).toBe(400);
    // Agents file tickets too (as JSON here), but have no Support Tools.
    const agent = await as(server, 'agent@agency.test');
    const filed = await agent.post(SUBMIT, { subject: 'Quote', description: 'Stuck', critical: false });
    expect(filed.status).toBe(200);
    expect((await agent.get('/api/support/tickets/')).status).toBe(200);
  });
});
