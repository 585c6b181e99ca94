import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { newMember, newPerson, type Person } from '../helpers/people';
import { axeScan, seriousFindings } from '../helpers/axe';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * The organization screens in the web app against a real server: creating an organization,
 * changing a member's role, creating a team, accepting an invite link in a second browser context
 * (another person), and the access of a space; each checked through the REST API, with
 * screenshots at desktop and phone width, light and dark.
 */

// People: Rita, Lee and Nia sign up through the server's OpenID provider (people.ts).
const e2e = useChromium({ app: true, people: true });

/** Polls the UI with a deadline that suits a loaded CI machine (vitest's default is one second). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Opens `path` of the web app, signs in with `token` there, and waits for the screen to settle. */
async function openSignedIn(token: string, path: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  // Fail a step well before the test's own deadline, so the failure says which step it was.
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  return page;
}

const shots = (page: Page, name: string) => e2e.screenshotEveryWay(page, name);

/** Runs axe-core on the page as it is now; returns its serious and critical violations, described. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  return seriousFindings(await axeScan(page)).map((line) => `${screen}: ${line}`);
}

let orgId = '';
/** The page the running test opened last: screenshotted when the test fails. */
let lastPage: Page | undefined;

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `org-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});
let member: Person;

describe('organization screens', () => {
  it('creates an organization from the start screen and lands on its home', async () => {
    const page = await openSignedIn(e2e.server.adminToken, '/');
    await page.getByTestId('org-list').waitFor();
    await shots(page, 'org-picker');
    await page.getByTestId('new-org').click();
    await page.getByTestId('new-org-title').fill('Acme Handbook');
    await shots(page, 'org-new');
    await page.getByTestId('new-org-create').click();
    await poll(() => page.getByTestId('org-title').textContent()).toBe('Acme Handbook');
    orgId = new URL(page.url()).pathname.split('/')[3]!;
    const org = await api<{ title: string; permissions: { admin: boolean } }>(
      e2e.server.adminToken,
      'GET',
      `/orgs/${orgId}`,
    );
    expect(org.title).toBe('Acme Handbook');
    expect(org.permissions.admin).toBe(true);

    // A collection and a space in it, through the home's buttons.
    await page.getByTestId('new-collection').click();
    await page.getByTestId('prompt-input').fill('Engineering');
    await page.getByTestId('prompt-ok').click();
    await poll(() => page.getByTestId('collection-title').textContent()).toBe('Engineering');
    await page.getByTestId('crumb-org').click();
    await page.getByTestId('org-new-space').click();
    await page.getByTestId('prompt-input').fill('Onboarding');
    await page.getByTestId('prompt-ok').click();
    await page.getByTestId('page-tree').waitFor();
    await page.goBack();
    await poll(() => page.getByTestId('org-space').count()).toBe(1);
    await shots(page, 'org-home');
  });

  it('changes a member’s role and removes a member (admin)', async () => {
    member = await newMember(e2e.server, orgId, 'read', 'Rita Reader');
    const leaving = await newMember(e2e.server, orgId, 'read', 'Lee Leaving');
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}/members`);
    const row = page.locator(`[data-testid=member][data-user-id="${member.id}"]`);
    await poll(() => row.getByTestId('member-role').inputValue()).toBe('read');
    await row.getByTestId('member-role').selectOption('edit');
    await poll(
      async () =>
        (await api<{ role: string }>(e2e.server.adminToken, 'GET', `/orgs/${orgId}/members/${member.id}`)).role,
    ).toBe('edit');
    await page.reload();
    await poll(() => row.getByTestId('member-role').inputValue()).toBe('edit');

    await page.locator(`[data-testid=member][data-user-id="${leaving.id}"]`).getByTestId('member-remove').click();
    await page.getByTestId('confirm-yes').click();
    await poll(() => page.locator(`[data-testid=member][data-user-id="${leaving.id}"]`).count()).toBe(0);
    const members = await api<{ items: { id: string }[] }>(e2e.server.adminToken, 'GET', `/orgs/${orgId}/members`);
    expect(members.items.map((m) => m.id)).not.toContain(leaving.id);
    await shots(page, 'org-members');
  });

  it('shows a member the screens without the admin actions', async () => {
    const page = await openSignedIn(member.token, `/o/${orgId}/members`);
    await page.getByTestId('member-list').locator('[data-testid=member]').first().waitFor();
    expect(await page.getByTestId('member-role').count()).toBe(0); // no role selects
    expect(await page.getByTestId('invite-emails').count()).toBe(0);
    expect(await page.getByTestId('member-role-label').count()).toBeGreaterThan(0);
    await page.getByTestId('org-tab-teams').click();
    await page.getByTestId('teams-title').waitFor();
    expect(await page.getByTestId('team-create').count()).toBe(0);
  });

  it('creates a team with members through the UI', async () => {
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}/teams`);
    await page.getByTestId('team-title').fill('Writers');
    const option = page.locator(`[data-testid=team-member-option][value="${member.id}"]`);
    await option.check();
    await page.getByTestId('team-create').click();
    const team = page.locator('[data-testid=team]', { hasText: 'Writers' });
    await poll(() => team.getByTestId('team-counts').textContent()).toContain('1 member');
    const teams = await api<{ items: { title: string; members: number }[] }>(
      e2e.server.adminToken,
      'GET',
      `/orgs/${orgId}/teams`,
    );
    expect(teams.items).toEqual([expect.objectContaining({ title: 'Writers', members: 1 })]);
    const ofMember = await api<{ items: { team: { title: string } }[] }>(
      member.token,
      'GET',
      `/orgs/${orgId}/members/${member.id}/teams`,
    );
    expect(ofMember.items.map((i) => i.team.title)).toEqual(['Writers']);
    await shots(page, 'org-teams');
  });

  it('an invite link made in one browser is accepted by another person in a second browser', async () => {
    const admin = await openSignedIn(e2e.server.adminToken, `/o/${orgId}/members`);
    await admin.getByTestId('invite-link-role').selectOption('comment');
    await admin.getByTestId('invite-link-create').click();
    // (Members added by the earlier tests joined through `read` links of their own.)
    const field = admin
      .getByTestId('org-invite-links')
      .locator('[data-testid=invite-link]', { hasText: 'Joins as Comment' })
      .getByTestId('invite-link-url');
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${e2e.server.url}/app/join/${orgId}/[A-Za-z0-9_-]+$`));
    await shots(admin, 'org-invite-links');

    // Another person, in a browser context of their own, signed out: the link asks them to sign in first.
    const newcomer = await newPerson(e2e.server, 'Nia Newcomer');
    const other = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await other.goto(link);
    await fillTokenSignIn(other, e2e.server.url, newcomer.token);
    await other.getByTestId('join-accept').waitFor();
    await shots(other, 'org-join');
    await other.getByTestId('join-accept').click();
    await poll(() => other.getByTestId('org-title').textContent()).toBe('Acme Handbook');
    expect(new URL(other.url()).pathname).toBe(`/app/o/${orgId}`);
    const joined = await api<{ role: string }>(e2e.server.adminToken, 'GET', `/orgs/${orgId}/members/${newcomer.id}`);
    expect(joined.role).toBe('comment');
  });

  it('sets who has access to a space', async () => {
    const spaces = await api<{ items: { id: string; defaultLevel: string | null }[] }>(
      e2e.server.adminToken,
      'GET',
      `/orgs/${orgId}/spaces`,
    );
    const space = spaces.items[0]!;
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}`);
    const row = page.locator(`[data-testid=org-space][data-space-id="${space.id}"]`);
    await row.getByTestId('space-access-toggle').click();
    const level = row.getByTestId('default-level');
    await level.selectOption('comment');
    await poll(
      async () =>
        (await api<{ defaultLevel: string | null }>(e2e.server.adminToken, 'GET', `/spaces/${space.id}`)).defaultLevel,
    ).toBe('comment');
    await shots(page, 'org-space-access');
  });

  it('shows the caller’s account, and their sessions, devices and tokens in one list', async () => {
    const page = await openSignedIn(member.token, '/account');
    await poll(() => page.getByTestId('account-user').textContent()).toContain('Rita Reader');
    const listed = await api<{ items: { id: string; kind: string }[] }>(member.token, 'GET', '/user/tokens');
    const rows = page.getByTestId('session-list').getByTestId('session');
    await poll(() => rows.count()).toBe(listed.items.length);
    // The token this app signed in with comes first, marked, and is signed out rather than revoked.
    const current = rows.first();
    expect(await current.getAttribute('data-current')).toBe('true');
    expect(await current.getByTestId('session-current').textContent()).toBe('this device');
    expect(await current.getByTestId('session-sign-out').count()).toBe(1);
    expect(await current.getByTestId('session-revoke').count()).toBe(0);
    for (const item of listed.items)
      expect(await page.locator(`[data-testid=session][data-token-id="${item.id}"]`).getAttribute('data-kind')).toBe(
        item.kind,
      );
    await shots(page, 'org-account');
  });

  it('has no serious or critical accessibility violations (axe-core), light and dark', async () => {
    const page = await openSignedIn(e2e.server.adminToken, `/o/${orgId}`, { bypassCSP: true });
    await page.getByTestId('org-space').first().waitFor();
    await page.getByTestId('space-access-toggle').first().click();
    await page.getByTestId('default-level').first().waitFor();
    const found: string[] = [];
    for (const [path, ready] of [
      [`/o/${orgId}`, 'default-level'],
      [`/o/${orgId}/members`, 'member-role'],
      [`/o/${orgId}/teams`, 'team'],
      ['/account', 'session'],
    ] as const) {
      if (path !== `/o/${orgId}`) {
        await page.goto(`${e2e.server.url}/app${path}`);
        await page.getByTestId(ready).first().waitFor();
      }
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300); // the theme's colour transitions
        found.push(...(await seriousViolations(page, `${path} ${scheme}`)));
      }
    }
    expect(found).toEqual([]);
  });
});
