import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok } from '../helpers/api';

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
function startSmtp(): Promise<{ port: number; messages: { to: string[]; raw: string }[]; close: () => Promise<void> }> {
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.server.address() as AddressInfo;
      resolve({ port, messages, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** Undoes quoted-printable soft line breaks and escapes. */
const decodeQp = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({
    FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    FOLIO_SMTP_FROM: 'Folio Test <folio@example.com>',
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('invite emails over SMTP', () => {
  it('sends the join link to invitees who have no account yet', async () => {
    const org = (await t.client.orgs.createOrganization({ title: 'Mailing Org' })).data;
    const res = await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(org.id, { emails: ['someone.new@example.com'] }),
    );
    expect(res.invited).toBe(1);
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual(['someone.new@example.com']);
    const body = decodeQp(mail.raw);
    expect(body).toMatch(/From: Folio Test <folio@example.com>/);
    expect(body).toContain('Mailing Org');
    const row = (
      await t.server.ctx.db.query<{ id: string }>('SELECT id FROM email_invites WHERE email = $1', [
        'someone.new@example.com',
      ])
    )[0]!;
    expect(body).toContain(t.server.ctx.urls.app(`/join/${org.id}/${row.id}`));
  });
});
