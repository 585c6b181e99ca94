import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONDocument, Translation, TranslationLanguage } from '@gitbook/api';
import { fails, ok, raw } from '../helpers/api';
import { seedPages, updatePages, type PageIds } from '../helpers/seed';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  fakeTranslate,
  startLibreTranslateStandIn,
  startOpenAiStandIn,
  type LibreTranslateStandIn,
  type OpenAiStandIn,
} from '../helpers/translate-engines';

/**
 * Translation runs on real engines: local stand-ins on 127.0.0.1 shaped like LibreTranslate and like
 * an OpenAI-compatible API (helpers/translate-engines.ts), which "translate" deterministically (every
 * word gets the target code in front). What a run must keep byte for byte is compared with the
 * source; what it sends is read off the stand-ins' request logs. Every answer of the API is
 * validated against GitBook's schemas.
 */

type Run = {
  state: string;
  error?: { code: string; message: string };
  review?: { changeRequest: string; pages: string[] };
};
type FolioTranslation = Translation & { run?: Run; engine: { kind: string; instructions: boolean } | null };

const en = 'en' as TranslationLanguage;
const doc = (text: string): JSONDocument => ({
  object: 'document',
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

const CODE = '```js\n// Hello world: keep me\nconst greeting = `hi`;\n```';
const welcome = (ids: PageIds) =>
  [
    'Start here.',
    '',
    '## Getting started',
    '',
    `Read the [install guide](/pages/${ids.Install} "Install it") and the [website](https://example.com/docs?a=1#top).`,
    '',
    'Run `npm start` to start the server.',
    '',
    CODE,
    '',
    '{% hint style="info" %}',
    'Remember to save your work.',
    '{% endhint %}',
    '',
    '* First step',
    '* Second step',
    '',
    '<a href="https://example.com/x" class="btn">Click here</a>',
    '',
  ].join('\n');

/** What a translation must keep byte for byte: code blocks, inline code, link targets, block tags, HTML tags. */
function kept(markdown: string) {
  return {
    code: markdown.match(/```[\s\S]*?```/g) ?? [],
    inline: markdown.replace(/```[\s\S]*?```/g, '').match(/`[^`\n]+`/g) ?? [],
    targets: markdown.match(/\]\([^)]*\)/g) ?? [],
    tags: markdown.match(/\{%.*?%\}/g) ?? [],
    html: markdown.match(/<[^>]+>/g) ?? [],
  };
}

interface Fixture {
  t: TestServer;
  orgId: string;
  spaceId: string;
  ids: PageIds;
}

async function fixture(env: Record<string, string>): Promise<Fixture> {
  const t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1', ...env });
  const orgId = (await t.client.orgs.createOrganization({ title: 'Translated Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  const ids = await seedPages(t, spaceId, [
    { title: 'Welcome', description: 'Where to begin', markdown: welcome },
    { title: 'Install', parent: 'Welcome', markdown: 'Install the package.\n' },
    { title: 'Reference', markdown: 'Every option is listed here.\n' },
  ]);
  return { t, orgId, spaceId, ids };
}

async function runToEnd(f: Fixture, id: string): Promise<FolioTranslation> {
  await f.t.server.ctx.jobRunner.drain();
  return (await ok('getTranslation', f.t.client.orgs.getTranslation(f.orgId, id))) as FolioTranslation;
}

async function markdownOf(f: Fixture, spaceId: string, pageId: string): Promise<string> {
  const page = await ok('getPageById', f.t.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' }));
  return (page as unknown as { markdown: string }).markdown;
}

/** The page tree of a space's current revision as [id, title, depth]. */
async function treeOf(f: Fixture, spaceId: string): Promise<[string, string, number][]> {
  const content = await ok('getCurrentRevision', f.t.client.spaces.getCurrentRevision(spaceId));
  const out: [string, string, number][] = [];
  const walk = (pages: { id: string; title: string; pages?: unknown[] }[], depth: number) => {
    for (const p of pages) {
      out.push([p.id, p.title, depth]);
      walk((p.pages ?? []) as typeof pages, depth + 1);
    }
  };
  walk(content.pages as never, 0);
  return out;
}

/** Texts the LibreTranslate stand-in was asked to translate since `from`. */
const sentTexts = (engine: LibreTranslateStandIn, from = 0) =>
  engine.requests.slice(from).flatMap((r) => (Array.isArray(r.q) ? r.q : [r.q]));

describe('on a LibreTranslate-compatible engine', () => {
  let engine: LibreTranslateStandIn;
  let f: Fixture;
  let translation: FolioTranslation;
  let resultId = '';

  beforeAll(async () => {
    engine = await startLibreTranslateStandIn();
    f = await fixture({ FOLIO_TRANSLATE_URL: engine.url });
  });
  afterAll(async () => {
    await f?.t.close();
    await engine?.close();
  });

  it('creates the result space on the first run: same tree and ids, prose translated, the rest byte for byte', async () => {
    const created = (await ok(
      'createTranslation',
      f.t.client.orgs.createTranslation(f.orgId, {
        language: 'fr' as TranslationLanguage,
        source: { space: f.spaceId, language: en },
      }),
      201,
    )) as FolioTranslation;
    expect(created.engine).toEqual({ kind: 'libretranslate', instructions: false });
    translation = await runToEnd(f, created.id);
    expect(translation.run?.error).toBeUndefined();
    expect(translation).toMatchObject({ status: 'completed', run: { state: 'succeeded' } });
    expect(translation.stats).toMatchObject({ runs: 1, totalPages: 3, latestPages: 3 });
    expect(translation.stats.latestWords).toBeGreaterThan(20);
    expect(translation.stats.totalWords).toBe(translation.stats.latestWords);
    resultId = translation.result!.space;
    expect(translation.result).toMatchObject({ language: 'fr' });

    const space = await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId));
    expect(space).toMatchObject({ title: 'Handbook (French)', language: 'fr' });
    expect((space as unknown as { translatedFrom: unknown }).translatedFrom).toEqual({
      translation: translation.id,
      space: f.spaceId,
      language: 'fr',
    });
    expect(space.revision).toBe(translation.result!.revision);

    const source = await treeOf(f, f.spaceId);
    const result = await treeOf(f, resultId);
    expect(result).toEqual(source.map(([id, title, depth]) => [id, fakeTranslate(title, 'fr'), depth]));

    const sourceMd = await markdownOf(f, f.spaceId, f.ids.Welcome!);
    const resultMd = await markdownOf(f, resultId, f.ids.Welcome!);
    expect(kept(resultMd)).toEqual(kept(sourceMd));
    expect(resultMd).toContain('[fr]Remember [fr]to [fr]save [fr]your [fr]work.');
    expect(resultMd).toContain('## [fr]Getting [fr]started');
    expect(resultMd).toContain('[[fr]install [fr]guide]');
    expect(resultMd).not.toContain('[fr]npm');
    const page = await ok('getPageById', f.t.client.spaces.getPageById(resultId, f.ids.Welcome!));
    expect((page as { description?: string }).description).toBe('[fr]Where [fr]to [fr]begin');
  });

  it('sends nothing on a run where nothing changed, and only the edited page after an edit', async () => {
    const before = engine.requests.length;
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    let after = await runToEnd(f, translation.id);
    expect(engine.requests.length).toBe(before);
    expect(after.stats).toMatchObject({ runs: 2, latestPages: 0, latestWords: 0, totalPages: 3 });
    expect(after.result!.revision).toBe(translation.result!.revision);

    await updatePages(f.t, f.spaceId, [
      { page: f.ids.Reference!, markdown: 'Every option is listed here.\n\nA new paragraph.\n' },
    ]);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    after = await runToEnd(f, translation.id);
    expect(after.stats).toMatchObject({ runs: 3, latestPages: 1 });
    const sent = sentTexts(engine, before).join('\n');
    expect(sent).toContain('A new paragraph.');
    // The paragraph that did not change is in the translation memory: never sent again, nor other pages.
    expect(sent).not.toContain('Every option');
    expect(sent).not.toContain('Install the package');
    expect(await markdownOf(f, resultId, f.ids.Reference!)).toBe(
      '[fr]Every [fr]option [fr]is [fr]listed [fr]here.\n\n[fr]A [fr]new [fr]paragraph.\n',
    );
    expect(after.result!.revision).not.toBe(translation.result!.revision);
    translation = after;
  });

  it('leaves a page edited in the result alone and proposes its new translation in a change request', async () => {
    await updatePages(f.t, resultId, [{ page: f.ids.Install!, markdown: 'Installez le paquet (relu à la main).\n' }]);
    await updatePages(f.t, f.spaceId, [{ page: f.ids.Install!, markdown: 'Install the package with npm.\n' }]);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    const after = await runToEnd(f, translation.id);
    expect(after.run?.review?.pages).toEqual([f.ids.Install]);
    expect(await markdownOf(f, resultId, f.ids.Install!)).toBe('Installez le paquet (relu à la main).\n');
    const crId = after.run!.review!.changeRequest;
    const cr = await ok('getChangeRequestById', f.t.client.spaces.getChangeRequestById(resultId, crId));
    expect(cr.subject).toContain('1 page edited');
    const proposed = await ok(
      'getPageInChangeRequestById',
      f.t.client.spaces.getPageInChangeRequestById(resultId, crId, f.ids.Install!, { format: 'markdown' }),
    );
    expect((proposed as unknown as { markdown: string }).markdown).toBe(
      '[fr]Install [fr]the [fr]package [fr]with [fr]npm.\n',
    );
    // The next run proposes nothing new for it: its source did not change again.
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    const again = await runToEnd(f, translation.id);
    expect(again.run?.review).toBeUndefined();
    expect(again.stats.latestPages).toBe(0);
  });

  it('proposes in the same change request when a run stopped after proposing is tried again', async () => {
    // The server stops (its job runner, as at shutdown) the moment the run writes its proposal: the run
    // is queued again with its progress, and its next attempt proposes again.
    const { ctx } = f.t.server;
    let stopping: Promise<void> | undefined;
    const off = ctx.hub.onUpdate((name, _update, origin) => {
      if (!stopping && name.startsWith('cr/') && 'reason' in origin && origin.reason === 'translation')
        stopping = ctx.jobRunner.stop();
    });
    // Every change request of the result space, drafts included.
    const crIds = async () =>
      (await ctx.db.query<{ id: string }>('SELECT id FROM change_requests WHERE space_id = $1', [resultId])).map(
        (r) => r.id,
      );
    await updatePages(f.t, resultId, [{ page: f.ids.Install!, markdown: 'Installez-le (relu encore).\n' }]);
    const crsBefore = await crIds(); // the hand edit above went through one, merged
    await updatePages(f.t, f.spaceId, [{ page: f.ids.Install!, markdown: 'Install the package with pnpm.\n' }]);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    try {
      await ctx.jobRunner.drain();
      expect(stopping).toBeDefined();
      await stopping;
    } finally {
      off();
      await ctx.jobRunner.start();
    }
    const after = await runToEnd(f, translation.id);
    expect(after.run?.state, JSON.stringify(after.run)).toBe('succeeded');
    expect(after.run?.review?.pages).toEqual([f.ids.Install]);
    const made = (await crIds()).filter((id) => !crsBefore.includes(id));
    expect(made).toEqual([after.run!.review!.changeRequest]);
    const proposed = await ok(
      'getPageInChangeRequestById',
      f.t.client.spaces.getPageInChangeRequestById(resultId, made[0]!, f.ids.Install!, { format: 'markdown' }),
    );
    expect((proposed as unknown as { markdown: string }).markdown).toBe(
      '[fr]Install [fr]the [fr]package [fr]with [fr]pnpm.\n',
    );
    translation = after;
  });

  it('does not write into its space while that space is in the trash', async () => {
    // Queued, then the space goes to the trash before the run starts: the run fails and says why.
    await updatePages(f.t, f.spaceId, [{ page: f.ids.Reference!, markdown: 'Every option, and one more.\n' }]);
    const runner = f.t.server.ctx.jobRunner;
    await runner.stop(); // the run stays queued meanwhile
    try {
      await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
      await f.t.client.spaces.deleteSpaceById(resultId);
    } finally {
      await runner.start();
    }
    const revision = (await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision;
    const queued = await runToEnd(f, translation.id);
    expect(queued.run).toMatchObject({ state: 'failed', error: { code: 'RESULT_IN_TRASH' } });
    expect(queued.run?.error?.message).toContain('restore it');
    // Asked again while it is there: refused at once, in the API's words.
    const refused = await fails(f.t.client.orgs.runTranslation(f.orgId, translation.id), 409);
    expect(refused).toContain('The translated space is in the trash');
    const restored = await raw(f.t, 'POST', `/v1/spaces/${resultId}/restore`, { token: f.t.adminToken });
    expect(restored.status).toBe(200);
    expect((await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision).toBe(revision);
    // Restored, it runs again.
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    translation = await runToEnd(f, translation.id);
    expect(translation.run?.state).toBe('succeeded');
    expect(await markdownOf(f, resultId, f.ids.Reference!)).toBe('[fr]Every [fr]option, [fr]and [fr]one [fr]more.\n');
  });

  it('follows pages added, moved and deleted in the source, with the same ids', async () => {
    const added = await seedPages(f.t, f.spaceId, [{ title: 'Changelog', markdown: 'Version one.\n' }]);
    await updatePages(f.t, f.spaceId, []);
    const res = await fetch(`${f.t.server.url}/v1/spaces/${f.spaceId}/change-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Drop the reference' }),
    });
    const cr = (await res.json()) as { id: string };
    await ok(
      'updateChangeRequestContent',
      f.t.client.spaces.updateChangeRequestContent(f.spaceId, cr.id, {
        changes: [{ operation: 'delete_page', page: f.ids.Reference! }],
      } as never),
    );
    await ok('mergeChangeRequest', f.t.client.spaces.mergeChangeRequest(f.spaceId, cr.id));
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    const after = await runToEnd(f, translation.id);
    expect(after.stats.latestPages).toBe(1);
    const source = await treeOf(f, f.spaceId);
    const result = await treeOf(f, resultId);
    expect(result.map(([id, , depth]) => [id, depth])).toEqual(source.map(([id, , depth]) => [id, depth]));
    expect(result.find(([id]) => id === added.Changelog)?.[1]).toBe('[fr]Changelog');
    expect(result.some(([id]) => id === f.ids.Reference)).toBe(false);
  });

  it('keeps the body of a page too complex to parse, says so, and tries it again on the next run', async () => {
    const deep = `${'>'.repeat(150)} Deeply quoted.\n`;
    const ids = await seedPages(f.t, f.spaceId, [{ title: 'Deep', markdown: deep }]);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    let after = (await runToEnd(f, translation.id)) as FolioTranslation & { run: { warnings?: string[] } };
    expect(after.run.state).toBe('succeeded');
    expect(after.run.warnings?.join('\n')).toContain(`The body of page ${ids.Deep} was kept untranslated`);
    expect(await markdownOf(f, resultId, ids.Deep!)).toBe(deep);
    expect((await treeOf(f, resultId)).find(([id]) => id === ids.Deep)?.[1]).toBe('[fr]Deep');
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    after = (await runToEnd(f, translation.id)) as typeof after;
    expect(after.stats.latestPages).toBe(1);
  });

  it('refuses instructions, which LibreTranslate cannot follow', async () => {
    const message = await fails(
      f.t.client.orgs.updateTranslation(f.orgId, translation.id, { instructions: doc('Use a formal tone.') }),
      400,
    );
    expect(message).toContain('cannot follow instructions');
  });

  it('ends a run the engine refuses as failed with its reason, and changes nothing in the result', async () => {
    const revision = (await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision;
    await updatePages(f.t, f.spaceId, [{ page: f.ids.Welcome!, title: 'Welcome aboard' }]);
    engine.failNext(1, 400);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    const after = await runToEnd(f, translation.id);
    expect(after.run).toMatchObject({ state: 'failed', error: { code: 'ENGINE_REFUSED' } });
    expect(after.status).toBe('completed');
    expect((await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision).toBe(revision);
    // The next run goes through.
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    const fixed = await runToEnd(f, translation.id);
    expect(fixed.run?.state).toBe('succeeded');
    expect((await treeOf(f, resultId)).find(([id]) => id === f.ids.Welcome)?.[1]).toBe('[fr]Welcome [fr]aboard');
  });

  it('runs one run at a time, and deleting the translation stops a run under way and keeps the result space', async () => {
    await updatePages(f.t, f.spaceId, [{ page: f.ids.Install!, markdown: 'Install it.\n' }]);
    engine.stall(1);
    const before = engine.requests.length;
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, translation.id), 204);
    f.t.server.ctx.jobRunner.wake();
    // Wait until the run is at the engine.
    for (let i = 0; i < 200 && engine.requests.length === before; i++) await new Promise((r) => setTimeout(r, 25));
    expect(engine.requests.length).toBeGreaterThan(before);
    expect(await fails(f.t.client.orgs.runTranslation(f.orgId, translation.id), 409)).toContain('already');
    await ok('deleteTranslation', f.t.client.orgs.deleteTranslation(f.orgId, translation.id), 205);
    const space = await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId));
    expect(space).not.toHaveProperty('translatedFrom');
    expect(space.language).toBe('fr');
  });
});

describe('on an OpenAI-compatible engine', () => {
  let engine: OpenAiStandIn;
  let f: Fixture;

  beforeAll(async () => {
    engine = await startOpenAiStandIn({ requireKey: 'sk-test-key' });
    f = await fixture({
      FOLIO_TRANSLATE_URL: `${engine.url}/v1`,
      FOLIO_TRANSLATE_MODEL: 'stand-in-model',
      FOLIO_TRANSLATE_KEY: 'sk-test-key',
    });
    await ok(
      'updateGlossaryEntries',
      f.t.client.orgs.updateGlossaryEntries(f.orgId, {
        operations: [
          { type: 'insert', translations: { en: 'package', de: 'Paket' } },
          { type: 'insert', translations: { en: 'server' } },
        ],
      }),
      204,
    );
  });
  afterAll(async () => {
    await f?.t.close();
    await engine?.close();
  });

  it('puts the instructions and the glossary in the prompt and enforces the glossary', async () => {
    const created = (await ok(
      'createTranslation',
      f.t.client.orgs.createTranslation(f.orgId, {
        language: 'de' as TranslationLanguage,
        source: { space: f.spaceId, language: en },
        instructions: doc('Use the informal "du".'),
      }),
      201,
    )) as FolioTranslation;
    expect(created.engine).toEqual({ kind: 'openai', instructions: true });
    const done = await runToEnd(f, created.id);
    expect(done.run?.error).toBeUndefined();
    expect(done.status).toBe('completed');
    expect(engine.systemPrompts.join('\n')).toContain('Use the informal "du".');
    expect(engine.systemPrompts.join('\n')).toContain('Paket');
    const install = await markdownOf(f, done.result!.space, f.ids.Install!);
    expect(install).toContain('Paket');
    expect(install).not.toContain('[de]package');
    const welcomeMd = await markdownOf(f, done.result!.space, f.ids.Welcome!);
    expect(kept(welcomeMd)).toEqual(kept(await markdownOf(f, f.spaceId, f.ids.Welcome!)));
    expect(welcomeMd).toContain('server');
    expect(welcomeMd).not.toContain('[de]server');
  });

  it('asks again when an answer breaks the markdown structure, and fails the run when it keeps breaking it', async () => {
    const list = await ok('listTranslations', f.t.client.orgs.listTranslations(f.orgId));
    const id = list.items[0]!.id;
    const resultId = list.items[0]!.result!.space;
    await updatePages(f.t, f.spaceId, [
      { page: f.ids.Reference!, markdown: 'See `config.json` and [the docs](https://example.com).\n' },
    ]);
    engine.breakStructure(1);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, id), 204);
    let after = await runToEnd(f, id);
    expect(after.run?.state).toBe('succeeded');
    expect(await markdownOf(f, resultId, f.ids.Reference!)).toBe(
      '[de]See `config.json` [de]and [[de]the [de]docs](https://example.com).\n',
    );

    const revision = (await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision;
    await updatePages(f.t, f.spaceId, [
      { page: f.ids.Reference!, markdown: 'See `other.json` and [more](https://example.org).\n' },
    ]);
    engine.breakStructure(100);
    await ok('runTranslation', f.t.client.orgs.runTranslation(f.orgId, id), 204);
    after = await runToEnd(f, id);
    engine.breakStructure(0);
    expect(after.run).toMatchObject({ state: 'failed', error: { code: 'STRUCTURE_BROKEN' } });
    expect((await ok('getSpaceById', f.t.client.spaces.getSpaceById(resultId))).revision).toBe(revision);
  });
});
