import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import { spaceContentDoc } from '../../../shared/sync-contract';
import { JobError, type JobKind } from '../../jobs/runner';
import type { TranslatePagesOptions, TranslationEngine } from '../../translation';
import { listGlossaryRows } from '../../store/glossary';
import { loadSpaceRow } from '../../store/spaces';
import { findTranslationById, memoryGet, memoryPut, recordRun, type TranslationRow } from '../../store/translations';
import { translationEngineOf } from './engine';
import { instructionsText } from './instructions';
import { applyMirror, readContent, trialMirror, type MirrorPlan, type PageText } from './mirror';
import { createResultSpace } from './result-space';
import { proposeForReview } from './review';
import { nextState, planRun, resultHash, textOf } from './run-state';
import { RESULT_IN_TRASH, resultInTrash, TRANSLATION_RUN_JOB, type RunOutcome, type RunPayload } from './run-outcome';

/** A run that takes longer than this is stopped (and retried): a large space on a slow engine. */
const RUN_TIMEOUT_MS = 60 * 60_000;

/** Saved as the job's progress; `writing` survives a kill between writing the result and recording it. */
interface RunProgress {
  pages: number;
  totalPages: number;
  /** What this attempt wrote into the result space (page id → text hash), once it is about to. */
  writing?: Record<string, string>;
  /** The change request this run proposed its reviews in, once made (a retry proposes in it again). */
  review?: string;
}

const NO_ENGINE =
  'No translation engine is configured on this server: an administrator sets FOLIO_TRANSLATE_URL (a LibreTranslate server), or FOLIO_TRANSLATE_URL and FOLIO_TRANSLATE_MODEL (an OpenAI-compatible API); see the README';

/**
 * A translation run: read the source space as it is now (a revision is cut first), translate the
 * pages that changed since the last run (the engine never sees the others, nor a text already in
 * the translation memory), and write the result space as ONE change — tried on a copy first, so a
 * refused or interrupted run leaves the result space as it was — then one revision. Pages edited
 * by hand in the result are left alone; their new translation goes to a change request.
 */
export function translationRunJob(ctx: AppContext): JobKind<RunPayload, RunOutcome> {
  return {
    kind: TRANSLATION_RUN_JOB,
    maxAttempts: 3,
    timeoutMs: RUN_TIMEOUT_MS,
    async run({ job, signal, progress }) {
      const started = performance.now();
      const { translationId, userId } = job.payload;
      const row = await findTranslationById(ctx.db, translationId);
      if (!row) throw new JobError('NOT_FOUND', 'The translation was deleted');
      const engine = translationEngineOf(ctx);
      if (!engine) throw new JobError('NO_ENGINE', NO_ENGINE);
      const source = await loadSpaceRow(ctx.db, row.source_space_id);
      if (!source || source.deleted_at) throw new JobError('NOT_FOUND', 'The source space no longer exists');
      // Trashed since the run was queued: nothing is written into a space in the trash.
      if (await resultInTrash(ctx.db, row)) throw new JobError('RESULT_IN_TRASH', RESULT_IN_TRASH);

      await ctx.snapshots.revise(source.id, { userId });
      const sourceContent = await ctx.hub.withDoc(spaceContentDoc(source.id), readContent);
      const resultSpaceId = row.result_space_id ?? (await createResultSpace(ctx, row, source, userId));
      const resultContent = await ctx.hub.withDoc(spaceContentDoc(resultSpaceId), readContent);

      const glossary = relevantGlossary(await listGlossaryRows(ctx.db, row.organization_id), row);
      const instructions = engine.supportsInstructions ? instructionsText(row.instructions) : '';
      const settings = settingsHash(ctx, row, instructions, glossary);
      // What an earlier attempt of this run did before it stopped, carried in every report until the
      // run is recorded (an attempt stopped again early must not forget it).
      const earlier = (job.progress as RunProgress | null) ?? undefined;
      const carried = {
        ...(earlier?.writing ? { writing: earlier.writing } : {}),
        ...(earlier?.review ? { review: earlier.review } : {}),
      };
      const plan = planRun(sourceContent, resultContent, row.page_state, settings, earlier?.writing ?? {});

      const byId = new Map(sourceContent.pages.map((p) => [p.id, p]));
      const toTranslate = [...plan.write, ...plan.review].map((id) => ({ id, text: textOf(byId.get(id)!) }));
      await progress({ pages: 0, totalPages: toTranslate.length, ...carried } satisfies RunProgress);
      const translated = await translateOrFail(engine, toTranslate, {
        from: row.source_language,
        to: row.language,
        ...(instructions ? { instructions } : {}),
        glossary,
        signal,
        segmenter: (markdown) => ctx.markdown.segments(markdown),
        memory: {
          get: (keys) => memoryGet(ctx.db, row.id, keys),
          put: (entries) => memoryPut(ctx.db, row.id, entries, ctx.clock.now()),
        },
        onProgress: ({ pages }) =>
          progress({ pages, totalPages: toTranslate.length, ...carried } satisfies RunProgress),
      });

      const texts = new Map<string, PageText>();
      for (const id of plan.write) texts.set(id, translated.pages.get(id)!);
      const writing = Object.fromEntries([...texts].map(([id, text]) => [id, resultHash(text)]));
      const done = { pages: toTranslate.length, totalPages: toTranslate.length, writing } satisfies RunProgress;
      await progress({ ...done, ...(carried.review ? { review: carried.review } : {}) });

      signal.throwIfAborted();
      const mirror: MirrorPlan = { source: sourceContent, texts, keep: new Set([...plan.review, ...plan.keep]) };
      const now = () => ctx.clock.now();
      await ctx.hub.withDoc(spaceContentDoc(resultSpaceId), (doc) => trialMirror(doc, mirror, now));
      let keptOrphans: string[] = [];
      await ctx.hub.change(
        spaceContentDoc(resultSpaceId),
        (doc) => {
          keptOrphans = applyMirror(doc, mirror, now).keptOrphans;
        },
        { userId, reason: 'translation' },
      );
      const revision =
        (await ctx.snapshots.revise(resultSpaceId, { userId })) ??
        (await loadSpaceRow(ctx.db, resultSpaceId))?.revision ??
        null;

      const proposals = new Map(plan.review.map((id) => [id, translated.pages.get(id)!]));
      const review =
        proposals.size > 0
          ? {
              changeRequest: await proposeForReview(ctx, resultSpaceId, proposals, userId, {
                earlier: carried.review,
                made: (id) => progress({ ...done, review: id }),
              }),
              pages: plan.review,
            }
          : undefined;
      // Stopped meanwhile (shutdown): nothing is recorded; the next attempt proposes in the same change request.
      signal.throwIfAborted();
      // A page whose body could not be parsed (too large, too deep, too slow) keeps its source text this time, and
      // is not recorded as translated: the next run tries it again.
      const untranslated = new Set(translated.untranslated.map((u) => u.pageId));
      const written = new Map([...texts, ...proposals].filter(([id]) => !untranslated.has(id)));
      await recordRun(
        ctx.db,
        row.id,
        {
          resultRevision: revision,
          pageState: nextState(plan, row.page_state, written),
          durationMs: performance.now() - started,
          pages: toTranslate.length,
          words: translated.words,
        },
        ctx.clock.now(),
      );
      return {
        revision,
        pages: toTranslate.length,
        words: translated.words,
        ...(review ? { review } : {}),
        warnings: [
          ...keptOrphans.map(
            (id) => `Page ${id} is no longer in the source space but was edited in the translation: it was kept`,
          ),
          ...translated.untranslated.map((u) => `The body of page ${u.pageId} was kept untranslated: ${u.reason}`),
        ],
      };
    },
  };
}

/** The glossary entries that say something about this pair of languages. */
function relevantGlossary(entries: readonly { translations: Record<string, string> }[], row: TranslationRow) {
  return entries.filter((e) => e.translations[row.source_language] !== undefined);
}

/** What a translation depends on besides the text: a change of engine, instructions or glossary retranslates. */
function settingsHash(
  ctx: AppContext,
  row: TranslationRow,
  instructions: string,
  glossary: readonly { translations: Record<string, string> }[],
): string {
  const c = ctx.config;
  const terms = glossary.map((e) => [e.translations[row.source_language], e.translations[row.language] ?? null]);
  return createHash('sha256')
    .update(
      JSON.stringify([c.translateEngine, c.translateUrl, c.translateModel ?? null, row.language, instructions, terms]),
    )
    .digest('hex');
}

/** Runs translatePages, its failures as job errors. The module loads with the first run (it brings the markdown parser). */
async function translateOrFail(
  engine: TranslationEngine,
  pages: readonly { id: string; text: PageText }[],
  options: TranslatePagesOptions,
) {
  const { TranslateError, translatePages } = await import('../../translation');
  try {
    return await translatePages(engine, pages, options);
  } catch (err) {
    if (err instanceof TranslateError) throw new JobError(err.code, err.message, err.retryable);
    throw err;
  }
}
