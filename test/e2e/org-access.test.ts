import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { connectDevice, newMember, type Person } from '../helpers/people';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * Direct access, team members and the caller's tokens through the organization screens of the
 * web app against a real server: a member given access to a space (and able to read it, then
 * not), a member added to and removed from a team, and a token revoked from the account screen
 * (it stops working at once). Each checked over REST, with screenshots at desktop and phone
 * width, light and dark.
 */

// People: Greta and Walt sign up through the server's OpenID provider (people.ts).
const e2e = useChromium({ app: true, people: true });
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as unknown };
}

async function must<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await call(token, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let lastPage: Page | undefined;
async function openSignedIn(token: string, path: string): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  return page;
}

const shots = (page: Page, name: string) => e2e.screenshotEveryWay(page, name);

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `org-access-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

let orgId: string;
let spaceId: string;
let guest: Person;
let writer: Person;

beforeAll(async () => {
  const admin = e2e.server.adminToken;
  orgId = (await must<{ id: string }>(admin, 'POST', '/orgs', { title: 'Access Co' })).id;
  spaceId = (await must<{ id: string }>(admin, 'POST', `/orgs/${orgId}/spaces`, { title: 'Secret plans' })).id;
  guest = await newMember(e2e.server, orgId, null, 'Greta Guest');
  writer = await newMember(e2e.server, orgId, 'edit', 'Walt Writer');
});

describe('people with access, team members and tokens', () => {
  it('gives a guest access to a space, changes the role, and takes it back', async () => {
    expect((await call(guest.token, 'GET', `/spaces/${spaceId}`)).status).toBe(404);
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}`);
    const row = page.locator(`[data-testid=org-space][data-space-id="${spaceId}"]`);
    await row.getByTestId('space-access-toggle').click();
    await row.getByTestId('access-people-empty').waitFor();
    await row.getByTestId('access-add-who').selectOption(`users:${guest.id}`);
    await row.getByTestId('access-add-role').selectOption('comment');
    await row.getByTestId('access-add').click();
    const person = row.locator(`[data-testid=access-person][data-user-id="${guest.id}"]`);
    await person.waitFor();
    await poll(async () => (await call(guest.token, 'GET', `/spaces/${spaceId}`)).status).toBe(200);
    const granted = await must<{ items: { permission: string; user: { id: string } }[] }>(
      e2e.server.adminToken,
      'GET',
      `/spaces/${spaceId}/permissions/users`,
    );
    expect(granted.items.map((i) => [i.user.id, i.permission])).toEqual([[guest.id, 'comment']]);
    await shots(page, 'org-access-people');

    await person.getByTestId('access-person-role').selectOption('edit');
    await poll(
      async () =>
        (
          await must<{ items: { permission: string }[] }>(
            e2e.server.adminToken,
            'GET',
            `/spaces/${spaceId}/permissions/users`,
          )
        ).items[0]?.permission,
    ).toBe('edit');

    await person.getByTestId('access-person-remove').click();
    await row.getByTestId('access-people-empty').waitFor();
    await poll(async () => (await call(guest.token, 'GET', `/spaces/${spaceId}`)).status).toBe(404);
  });

  it('adds a member to a team and removes them', async () => {
    const team = await must<{ id: string }>(e2e.server.adminToken, 'PUT', `/orgs/${orgId}/teams`, {
      title: 'Editors',
      members: [writer.id],
    });
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}/teams`);
    const row = page.locator(`[data-testid=team][data-team-id="${team.id}"]`);
    await row.getByTestId('team-members-toggle').click();
    await row.locator(`[data-testid=team-member][data-user-id="${writer.id}"]`).waitFor();
    await row.getByTestId('team-member-add-who').selectOption(guest.id);
    await row.getByTestId('team-member-add').click();
    await row.locator(`[data-testid=team-member][data-user-id="${guest.id}"]`).waitFor();
    const members = async () =>
      (
        await must<{ items: { organization: { id: string } }[] }>(
          e2e.server.adminToken,
          'GET',
          `/orgs/${orgId}/teams/${team.id}/members`,
        )
      ).items
        .map((i) => i.organization.id)
        .sort();
    await poll(members).toEqual([guest.id, writer.id].sort());
    await shots(page, 'org-team-members');

    await row
      .locator(`[data-testid=team-member][data-user-id="${writer.id}"]`)
      .getByTestId('team-member-remove')
      .click();
    await poll(members).toEqual([guest.id]);
  });

  it('revokes one of the caller’s tokens from the account screen', async () => {
    // Walt connects a second device, "Laptop CLI" (the desktop device flow, as `folio token create` is for admins).
    const laptop = (await connectDevice(e2e.server, writer, 'Laptop CLI')).token;
    expect((await call(laptop, 'GET', '/user')).status).toBe(200);
    const page = await openSignedIn(writer.token, '/account');
    // One list of everything signed in as Walt, as the API lists it.
    const rows = page.getByTestId('session-list').getByTestId('session');
    const listed = await must<{ items: { id: string }[] }>(writer.token, 'GET', '/user/tokens');
    await poll(() => rows.count()).toBe(listed.items.length);
    // The token this app uses is marked and signed out, not offered for revocation.
    const current = rows.filter({ hasText: 'this device' });
    expect(await current.count()).toBe(1);
    expect(await current.getByTestId('session-revoke').count()).toBe(0);
    const device = rows.filter({ hasText: 'Laptop CLI' });
    expect(await device.getAttribute('data-kind')).toBe('device');
    await shots(page, 'org-account-tokens');

    await device.getByTestId('session-revoke').click();
    await page.getByTestId('confirm-yes').click();
    await poll(() => rows.count()).toBe(listed.items.length - 1);
    await poll(() => device.count()).toBe(0);
    await poll(async () => (await call(laptop, 'GET', '/user')).status).toBe(401);
    expect((await call(writer.token, 'GET', '/user')).status).toBe(200);
  });
});
