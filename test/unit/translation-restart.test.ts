import { expect, it } from 'vitest';
import { crash } from '../helpers/process-crash';
import { restartSuite } from '../helpers/restart-suite';
import type { ServerProcess } from '../helpers/server-process';
import { fakeTranslate, startLibreTranslateStandIn, type LibreTranslateStandIn } from '../helpers/translate-engines';
import { waitFor } from '../helpers/wait';

/**
 * A translation run killed with its server (kill -9, compiled server on PGlite) while the engine
 * holds its request: started again on the same folder, the run goes on and ends with the result
 * space complete — one result space, every page translated, and no revision of it ever holding a
 * part of the translation.
 */

const TOKEN = 'translation-restart-token-0123456789';
let engine: LibreTranslateStandIn;
let server: ServerProcess | undefined;

const suite = restartSuite({
  token: TOKEN,
  folder: 'folio-translation-restart-',
  peer: async () => (engine = await startLibreTranslateStandIn()),
  env: () => ({ FOLIO_TRANSLATE_URL: engine.url }),
});
const { api } = suite;

const PAGES = ['Welcome', 'Install', 'Configure', 'Deploy', 'Upgrade'];

it('finishes a run killed while the engine held it: one result space, complete, never half-written', async () => {
  const dataDir = await suite.dataDir();
  server = await suite.start(dataDir);
  const orgId = (await api(server, 'POST', '/orgs', { title: 'Translation restart' })).body.id as string;
  const spaceId = (await api(server, 'POST', `/orgs/${orgId}/spaces`, { title: 'Docs' })).body.id as string;
  const cr = (await api(server, 'POST', `/spaces/${spaceId}/change-requests`, {})).body.id as string;
  const wrote = await api(server, 'POST', `/spaces/${spaceId}/change-requests/${cr}/content`, {
    changes: PAGES.map((title) => ({
      operation: 'insert_page',
      title,
      document: {
        markdown: `How to ${title.toLowerCase()} the server.\n\n\`\`\`sh\nfolio ${title.toLowerCase()}\n\`\`\`\n`,
      },
    })),
  });
  expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
  expect((await api(server, 'POST', `/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);

  engine.stall(1);
  const created = await api(server, 'POST', `/orgs/${orgId}/translations`, {
    language: 'fr',
    source: { space: spaceId, language: 'en' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  await waitFor(() => engine.requests.length >= 1, 20_000, 'the run to reach the engine', 50);
  await crash(server);

  server = await suite.start(dataDir);
  type Translation = {
    status: string;
    run?: { state: string };
    result?: { space: string; revision: string };
    stats: { runs: number };
  };
  const done = await waitFor(
    async () => {
      const t = (await api(server!, 'GET', `/orgs/${orgId}/translations/${id}`)).body as unknown as Translation;
      return t.run?.state === 'succeeded' ? t : undefined;
    },
    60_000,
    'the run to finish after the restart',
    100,
  );
  expect(done!.status).toBe('completed');
  expect(done!.stats.runs).toBe(1);
  const spaces = (await api(server, 'GET', `/orgs/${orgId}/spaces`)).body as unknown as { items: { title: string }[] };
  expect(spaces.items.map((s) => s.title).sort()).toEqual(['Docs', 'Docs (French)']);

  const resultId = done!.result!.space;
  const content = (await api(server, 'GET', `/spaces/${resultId}/content`)).body as unknown as {
    pages: { title: string; markdown: string }[];
  };
  expect(content.pages.map((p) => p.title)).toEqual(PAGES.map((p) => fakeTranslate(p, 'fr')));
  for (const p of content.pages) expect(p.markdown).toMatch(/^\[fr\]How \[fr\]to .*\n\n```sh\nfolio [a-z]+\n```\n$/);
  // Every revision of the result space holds none of the pages or all of them.
  const history = (await api(server, 'GET', `/spaces/${resultId}/revisions`)).body as unknown as {
    items: { id: string }[];
  };
  for (const r of history.items) {
    const revision = (await api(server, 'GET', `/spaces/${resultId}/revisions/${r.id}`)).body as unknown as {
      pages: unknown[];
    };
    expect([0, PAGES.length]).toContain(revision.pages.length);
  }
}, 180_000);
