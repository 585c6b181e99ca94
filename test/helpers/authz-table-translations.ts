import type { OrganizationAction } from '../../sync-server/policy/organization';
import type { OperationTable } from './authz-cases';
import { ask } from './authz-expect';
import { must, type World } from './authz-fixture';
import type { Params } from './authz-fresh';

/**
 * Translations: whoever sees the source space sees its translations; `manage-translations` (the
 * "create" role or admin) creates, changes, runs and deletes them and edits the glossary, which every
 * member reads. The fixture's server has no translation engine, so a queued run fails at once
 * (NO_ENGINE) and writes nothing.
 */

const inOrg = (action: OrganizationAction) => (_w: unknown, p: Record<string, string>) => [
  ask.organization(p.organizationId!, action),
];
const onSource = (then?: OrganizationAction) => (w: World, p: Params) => [
  ask.organization(p.organizationId!, 'view'),
  ask.space(w.spaceId, 'view'),
  ...(then ? [ask.organization(p.organizationId!, then)] : []),
];

/** Target languages the matrix creates translations into (a space has one per language): apart for DELETE's own. */
const CREATE_LANGUAGES = ['fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'ko', 'ar', 'yue', 'no'];
const DELETE_LANGUAGES = ['hi', 'nl', 'pl', 'tr', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi'];
let created = 0;
let deleted = 0;
const EMPTY = { object: 'document', data: {}, nodes: [] };

const fixtures = new WeakMap<World, Promise<Params>>();

/** The world's translation of its space (into Swedish) and a glossary entry, made on first use. */
function translation(w: World): Promise<Params> {
  let made = fixtures.get(w);
  if (!made) {
    made = (async () => {
      const base = `/orgs/${w.organizationId}`;
      const t = await must<{ id: string }>(w.t, 'POST', `${base}/translations`, {
        language: 'sv',
        source: { space: w.spaceId, language: 'en' },
      });
      await w.t.server.ctx.jobRunner.drain();
      await must(w.t, 'PUT', `${base}/translations-glossary`, {
        operations: [{ type: 'insert', translations: { en: 'matrix', sv: 'matris' } }],
      });
      const entries = await must<{ items: { id: string }[] }>(w.t, 'GET', `${base}/translations-glossary`);
      return { translationId: t.id, glossaryEntryId: entries.items[0]!.id };
    })();
    fixtures.set(w, made);
  }
  return made;
}

/** A translation of its own, deleted by the call (an allowed DELETE answers 205, a refused one 403). */
async function ownTranslation(w: World): Promise<Params> {
  const language = DELETE_LANGUAGES[deleted++ % DELETE_LANGUAGES.length]!;
  const base = `/orgs/${w.organizationId}/translations`;
  const existing = await must<{ items: { id: string; language: string; source: { space: string } }[] }>(
    w.t,
    'GET',
    base,
  );
  const found = existing.items.find((i) => i.language === language && i.source.space === w.spaceId);
  if (found) return { translationId: found.id };
  const t = await must<{ id: string }>(w.t, 'POST', base, { language, source: { space: w.spaceId, language: 'en' } });
  await w.t.server.ctx.jobRunner.drain();
  return { translationId: t.id };
}

export const TRANSLATION_OPERATIONS: OperationTable = {
  listTranslations: { params: translation, checks: inOrg('view') },
  createTranslation: {
    // Every allowed call creates one: the next language each time, on a space of its own.
    body: (w) => ({
      language: CREATE_LANGUAGES[created++ % CREATE_LANGUAGES.length],
      source: { space: w.spaceId, language: 'en' },
    }),
    checks: (w, p) => [ask.organization(p.organizationId!, 'manage-translations'), ask.space(w.spaceId, 'view')],
  },
  getTranslation: { params: translation, checks: onSource() },
  updateTranslation: {
    params: translation,
    body: () => ({ instructions: EMPTY }),
    checks: onSource('manage-translations'),
  },
  deleteTranslation: { params: ownTranslation, checks: onSource('manage-translations'), deleted: 205 },
  runTranslation: {
    // The previous allowed call's run ends first (at once: no engine), or this one would be a 409.
    params: async (w) => {
      await w.t.server.ctx.jobRunner.drain();
      return translation(w);
    },
    checks: onSource('manage-translations'),
  },
  listGlossaryEntries: { params: translation, checks: inOrg('view') },
  updateGlossaryEntries: { body: () => ({ operations: [] }), checks: inOrg('manage-translations') },
  getGlossaryEntry: { params: translation, checks: inOrg('view') },
};
