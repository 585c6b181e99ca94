import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok } from '../helpers/api';
import { decodeQuotedPrintable as decodeQp, startSmtp, type TestSmtp } from '../helpers/smtp';

let smtp: TestSmtp;
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
