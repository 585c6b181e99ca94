import type { AppContext } from '../../context';
import { can, type Actor } from '../../policy';
import type { TranslationEngine } from '../../translation';
import type { TranslationRow } from '../../store/translations';
import type { GlossaryRow } from '../../store/glossary';
import { organization } from '../authorize';
import type { RunOutcome } from './run-outcome';

export const translationLocation = (ctx: AppContext, row: Pick<TranslationRow, 'organization_id' | 'id'>) =>
  ctx.urls.api(`/orgs/${row.organization_id}/translations/${row.id}`);

const seconds = (ms: string | number) => Math.round(Number(ms) / 1000);
const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

type RunState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * GitBook's statuses are pending, running and completed: a queued run is pending, a run under way
 * running, and otherwise the translation is completed once a run has written its result (a later
 * failed run leaves that result as it was; `run` tells what happened).
 */
function statusOf(row: TranslationRow): 'pending' | 'running' | 'completed' {
  if (row.job_state === 'running') return 'running';
  if (row.job_state === 'queued') return 'pending';
  return row.result_revision_id ? 'completed' : 'pending';
}

function runOf(row: TranslationRow) {
  if (!row.job_id || !row.job_state || !row.job_created_at) return undefined;
  const outcome = (row.job_result ?? undefined) as RunOutcome | undefined;
  const progress = row.job_progress as { pages?: number; totalPages?: number } | null;
  return {
    id: row.job_id,
    state: row.job_state as RunState,
    createdAt: row.job_created_at.toISOString(),
    ...(row.job_started_at ? { startedAt: iso(row.job_started_at) } : {}),
    ...(row.job_finished_at ? { endedAt: iso(row.job_finished_at) } : {}),
    ...(row.job_state === 'running' && typeof progress?.totalPages === 'number'
      ? { progress: { pages: progress.pages ?? 0, totalPages: progress.totalPages } }
      : {}),
    ...(row.job_state === 'failed' || row.job_state === 'cancelled'
      ? {
          error: {
            code: row.job_error_code ?? (row.job_state === 'cancelled' ? 'CANCELLED' : 'FAILED'),
            message: row.job_error_message ?? 'The run did not finish',
          },
        }
      : {}),
    ...(outcome && row.job_state === 'succeeded' ? { pages: outcome.pages, words: outcome.words } : {}),
    ...(outcome?.review ? { review: outcome.review } : {}),
    ...(outcome?.warnings?.length ? { warnings: outcome.warnings } : {}),
  };
}

/** GitBook's Translation, with Folio's `engine` and `run`. */
export function presentTranslation(
  ctx: AppContext,
  row: TranslationRow,
  actor: Actor,
  engine: TranslationEngine | undefined,
) {
  const run = runOf(row);
  return {
    object: 'translation' as const,
    id: row.id,
    status: statusOf(row),
    source: { space: row.source_space_id, language: row.source_language },
    language: row.language,
    instructions: row.instructions as { object: 'document'; data: Record<string, unknown>; nodes: unknown[] },
    ...(row.result_space_id && row.result_revision_id
      ? { result: { space: row.result_space_id, revision: row.result_revision_id, language: row.language } }
      : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    stats: {
      runs: row.runs,
      totalWords: Number(row.total_words),
      totalPages: Object.keys(row.page_state).length,
      totalDuration: seconds(row.total_duration_ms),
      latestRunDuration: seconds(row.latest_run_duration_ms),
      latestPages: row.latest_pages,
      latestWords: row.latest_words,
    },
    permissions: { view: true, edit: can(actor, 'manage-translations', organization(row.organization_id)) },
    urls: { location: translationLocation(ctx, row) },
    engine: engine ? { kind: engine.kind, instructions: engine.supportsInstructions } : null,
    ...(run ? { run } : {}),
  };
}

/** GitBook's GlossaryEntry. */
export function presentGlossaryEntry(ctx: AppContext, row: GlossaryRow) {
  return {
    object: 'glossary-entry' as const,
    id: row.id,
    translations: row.translations,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    urls: { location: ctx.urls.api(`/orgs/${row.organization_id}/translations-glossary/${row.id}`) },
  };
}
