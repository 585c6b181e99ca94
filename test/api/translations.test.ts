import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONDocument, Translation, TranslationLanguage } from '@gitbook/api';
import { expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { seedPages } from '../helpers/seed';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * GitBook's "Translations" group and glossary through the official client, every answer validated
 * against GitBook's schemas, on a server without a translation engine: the records, their
 * validation and permissions, and a run that fails saying why and writes nothing. Runs on real
 * engines (stand-ins on 127.0.0.1) are test/api/translation-runs.test.ts.
 */

let t: TestServer;
let orgId = '';
let spaceId = '';
const EMPTY = { object: 'document' as const, data: {}, nodes: [] };
const doc = (text: string): JSONDocument => ({
  object: 'document' as const,
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    },
  ],
});

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Translations Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await seedPages(t, spaceId, [{ title: 'Welcome', markdown: 'Hello.\n' }]);
});
afterAll(async () => {
  await t?.close();
});

const create = (language: string, extra: object = {}) =>
  ok(
    'createTranslation',
    t.client.orgs.createTranslation(orgId, {
      language: language as Translation['language'],
      source: { space: spaceId, language: 'en' as TranslationLanguage },
      ...extra,
    }),
    201,
  );
const messageOf = (res: { body: unknown }) => (res.body as { error: { message: string } }).error.message;
const get = (id: string) => ok('getTranslation', t.client.orgs.getTranslation(orgId, id));

describe('translations without an engine', () => {
  it('creates one with its first run queued, and the run fails saying no engine is configured', async () => {
    const created = await create('fr', { instructions: doc('Use a formal tone.') });
    expect(created).toMatchObject({
      object: 'translation',
      // The runner may have picked the run up already.
      status: expect.stringMatching(/^(pending|running)$/),
      source: { space: spaceId, language: 'en' },
      language: 'fr',
      stats: { runs: 0, totalWords: 0, totalPages: 0, latestPages: 0 },
      permissions: { view: true, edit: true },
      engine: null,
      run: { state: expect.stringMatching(/^(queued|running)$/) },
    });
    expect(created.urls.location).toBe(`${t.server.url}/v1/orgs/${orgId}/translations/${created.id}`);
    expect(created).not.toHaveProperty('result');
    await t.server.ctx.jobRunner.drain();
    const after = (await get(created.id)) as Translation & {
      run: { state: string; error: { code: string; message: string } };
    };
    expect(after.status).toBe('pending');
    expect(after.run.state).toBe('failed');
    expect(after.run.error.code).toBe('NO_ENGINE');
    expect(after.run.error.message).toContain('FOLIO_TRANSLATE_URL');
    expect(after).not.toHaveProperty('result');
    // Nothing was written: no result space next to the source.
    const spaces = await ok('listSpacesInOrganizationById', t.client.orgs.listSpacesInOrganizationById(orgId));
    expect(spaces.items.map((s) => s.title)).toEqual(['Handbook']);
    // The instructions are kept as given (GitBook's JSONDocument).
    expect(after.instructions).toEqual(doc('Use a formal tone.'));
  });

  it('lists, reads, changes the instructions of, runs again and deletes a translation', async () => {
    const de = await create('de');
    await t.server.ctx.jobRunner.drain();
    const list = await ok('listTranslations', t.client.orgs.listTranslations(orgId));
    expect(list.items.map((i) => i.language)).toEqual(['fr', 'de']);
    // Folio: the list says which engine runs use, for an organization without translations too.
    expect((list as unknown as { engine: unknown }).engine).toBeNull();
    const updated = await ok(
      'updateTranslation',
      t.client.orgs.updateTranslation(orgId, de.id, { instructions: doc('Short sentences.') }),
    );
    expect(updated.instructions).toEqual(doc('Short sentences.'));
    await ok('runTranslation', t.client.orgs.runTranslation(orgId, de.id), 204);
    await t.server.ctx.jobRunner.drain();
    expect(((await get(de.id)) as unknown as { run: { state: string } }).run.state).toBe('failed');
    await ok('deleteTranslation', t.client.orgs.deleteTranslation(orgId, de.id), 205);
    await ok('deleteTranslation', t.client.orgs.deleteTranslation(orgId, de.id), 204);
    await fails(t.client.orgs.getTranslation(orgId, de.id), 404);
  });

  it('refuses bad input with a clear 4xx and creates nothing', async () => {
    const base = `/v1/orgs/${orgId}/translations`;
    const cases: [unknown, number, string][] = [
      [{ language: 'en', source: { space: spaceId, language: 'en' } }, 400, 'already in "en"'],
      [{ language: 'xx', source: { space: spaceId, language: 'en' } }, 400, 'language'],
      [{ language: 'it', source: { space: 'nosuchspace', language: 'en' } }, 404, 'Space'],
      [{ language: 'fr', source: { space: spaceId, language: 'en' } }, 409, 'already has a translation'],
      [{ language: 'it', source: { space: spaceId } }, 400, 'language'],
      [{ language: 'it', source: { space: spaceId, language: 'en' }, instructions: 'be nice' }, 400, 'instructions'],
      [{ language: 'it', source: { space: spaceId, language: 'en' }, extra: 1 }, 400, 'extra'],
    ];
    for (const [body, status, message] of cases) {
      const res = await raw(t, 'POST', base, { token: t.adminToken, body });
      expectError(res, status);
      expect(messageOf(res), JSON.stringify(body)).toContain(message);
    }
    expectError(await raw(t, 'PUT', `${base}/nosuch`, { token: t.adminToken, body: { instructions: EMPTY } }), 404);
    expectError(await raw(t, 'POST', `${base}/nosuch/run`, { token: t.adminToken }), 404);
    const list = await ok('listTranslations', t.client.orgs.listTranslations(orgId));
    expect(list.items.map((i) => i.language)).toEqual(['fr']);
  });

  it('shows translations to whoever sees the source space, and lets only the "create" role change them', async () => {
    const reader = await newMember(t, orgId, 'read');
    const creator = await newMember(t, orgId, 'create');
    const asReader = t.clientFor(reader.token);
    const list = await ok('listTranslations', asReader.orgs.listTranslations(orgId));
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.permissions).toEqual({ view: true, edit: false });
    await fails(
      asReader.orgs.createTranslation(orgId, {
        language: 'es' as TranslationLanguage,
        source: { space: spaceId, language: 'en' as TranslationLanguage },
      }),
      403,
    );
    await fails(asReader.orgs.runTranslation(orgId, list.items[0]!.id), 403);
    await fails(asReader.orgs.deleteTranslation(orgId, list.items[0]!.id), 403);
    // A guest sees no space of the organization until invited to one: nor its translations.
    const guest = t.clientFor((await newMember(t, orgId, null)).token);
    expect((await ok('listTranslations', guest.orgs.listTranslations(orgId))).items).toEqual([]);
    await fails(guest.orgs.getTranslation(orgId, list.items[0]!.id), 404);
    // The "create" role manages them.
    const asCreator = t.clientFor(creator.token);
    const es = await ok(
      'createTranslation',
      asCreator.orgs.createTranslation(orgId, {
        language: 'es' as TranslationLanguage,
        source: { space: spaceId, language: 'en' as TranslationLanguage },
      }),
      201,
    );
    expect(es.permissions).toEqual({ view: true, edit: true });
    await t.server.ctx.jobRunner.drain();
    await ok('deleteTranslation', asCreator.orgs.deleteTranslation(orgId, es.id), 205);
  });
});

describe('the glossary', () => {
  const base = () => `/v1/orgs/${orgId}/translations-glossary`;

  it('inserts, updates and deletes entries in one batch, and lists them ordered by a language', async () => {
    await ok(
      'updateGlossaryEntries',
      t.client.orgs.updateGlossaryEntries(orgId, {
        operations: [
          { type: 'insert', translations: { en: 'workspace', fr: 'espace de travail' } },
          { type: 'insert', translations: { en: 'Account', fr: 'compte' } },
          { type: 'insert', translations: { en: 'change request' } },
        ],
      }),
      204,
    );
    const list = await ok(
      'listGlossaryEntries',
      t.client.orgs.listGlossaryEntries(orgId, { orderBy: 'en' as TranslationLanguage }),
    );
    expect(list.items.map((e) => e.translations.en)).toEqual(['Account', 'change request', 'workspace']);
    const workspace = list.items.find((e) => e.translations.en === 'workspace')!;
    expect(workspace.urls.location).toBe(`${t.server.url}/v1/orgs/${orgId}/translations-glossary/${workspace.id}`);
    const account = list.items.find((e) => e.translations.en === 'Account')!;
    await ok(
      'updateGlossaryEntries',
      t.client.orgs.updateGlossaryEntries(orgId, {
        operations: [
          { type: 'update', id: workspace.id, translations: { en: 'workspace', fr: 'espace', de: 'Arbeitsbereich' } },
          { type: 'delete', id: account.id },
        ],
      }),
      204,
    );
    const entry = await ok('getGlossaryEntry', t.client.orgs.getGlossaryEntry(orgId, workspace.id));
    expect(entry.translations).toEqual({ en: 'workspace', fr: 'espace', de: 'Arbeitsbereich' });
    await fails(t.client.orgs.getGlossaryEntry(orgId, account.id), 404);
  });

  it('refuses a bad batch as a whole: nothing of it is applied', async () => {
    const before = await ok('listGlossaryEntries', t.client.orgs.listGlossaryEntries(orgId));
    const bad: [unknown, string][] = [
      [
        [
          { type: 'insert', translations: { en: 'x' } },
          { type: 'delete', id: 'nosuchentry' },
        ],
        'nosuchentry',
      ],
      [[{ type: 'insert', translations: { xx: 'term' } }], '"xx" is not a language'],
      [[{ type: 'insert', translations: { en: '   ' } }], 'empty'],
      [[{ type: 'insert', translations: { en: 'two\nlines' } }], 'pattern'],
      [[{ type: 'insert', translations: {} }], 'at least one'],
      [[{ type: 'rename', id: 'x' }], 'operations'],
    ];
    for (const [operations, message] of bad) {
      const res = await raw(t, 'PUT', base(), { token: t.adminToken, body: { operations } });
      expect(res.status, JSON.stringify(operations)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(messageOf(res)).toContain(message);
    }
    const after = await ok('listGlossaryEntries', t.client.orgs.listGlossaryEntries(orgId));
    expect(after.items).toEqual(before.items);
  });

  it('lets members read it and only the "create" role change it', async () => {
    const reader = await newMember(t, orgId, 'read');
    const asReader = t.clientFor(reader.token);
    expect((await ok('listGlossaryEntries', asReader.orgs.listGlossaryEntries(orgId))).items.length).toBeGreaterThan(0);
    await fails(asReader.orgs.updateGlossaryEntries(orgId, { operations: [] }), 403);
  });
});
