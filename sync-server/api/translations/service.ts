import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { decide, type Actor } from '../../policy';
import { spaceResource } from '../../access/resources';
import { loadSpaceRow, updateSpaceRow } from '../../store/spaces';
import type { Queryable } from '../../store/db';
import {
  deleteTranslationRow,
  findTranslation,
  findTranslationOf,
  insertTranslationRow,
  listTranslationRows,
  setInstructions,
  setTranslationJob,
  type TranslationRow,
} from '../../store/translations';
import { actorForDelete, authorize, organization, requireOrgActor, requireOrgPermission } from '../authorize';
import { translationEngineOf } from './engine';
import { EMPTY_INSTRUCTIONS, instructionsText } from './instructions';
import { presentTranslation } from './present';
import {
  RESULT_IN_TRASH,
  resultInTrash,
  TRANSLATION_RUN_JOB,
  translationSubject,
  type RunPayload,
} from './run-outcome';

/**
 * Translations: who sees one is who sees its source space; creating, changing, running and
 * deleting them takes the organization's `manage-translations` (the "create" role, as creating
 * any space does). Creating one queues its first run; every run is a job (run-job.ts).
 */

/** The source space as the caller sees it (404 when they cannot), live. */
async function viewableSource(ctx: AppContext, actor: Actor, spaceId: string, organizationId: string) {
  const row = await loadSpaceRow(ctx.db, spaceId);
  if (!row || row.organization_id !== organizationId || !decide(actor, 'view', spaceResource(row)).allowed)
    throw notFound('Space');
  if (row.deleted_at) throw badRequest('The source space is in the trash: restore it first');
  return row;
}

/** Whoever sees the source space sees its translations. */
function canSee(actor: Actor, sourceRow: Awaited<ReturnType<typeof loadSpaceRow>>): boolean {
  return !!sourceRow && decide(actor, 'view', spaceResource(sourceRow)).allowed;
}

async function requireTranslation(ctx: AppContext, actor: Actor, organizationId: string, id: string) {
  const row = await findTranslation(ctx.db, organizationId, id);
  if (!row || !canSee(actor, await loadSpaceRow(ctx.db, row.source_space_id))) throw notFound('Translation');
  return row;
}

/** An engine that cannot follow instructions refuses them now, rather than ignoring them at every run. */
function checkInstructions(ctx: AppContext, instructions: unknown): void {
  const engine = translationEngineOf(ctx);
  if (engine && !engine.supportsInstructions && instructionsText(instructions) !== '')
    throw badRequest(
      `This server's translation engine (${engine.kind}) cannot follow instructions: remove them, or configure an OpenAI-compatible engine (FOLIO_TRANSLATE_MODEL)`,
    );
}

const present = (ctx: AppContext, row: TranslationRow, actor: Actor) =>
  presentTranslation(ctx, row, actor, translationEngineOf(ctx));

/** Queues a run (in `tx`), as the translation's newest job. */
async function queueRun(
  ctx: AppContext,
  tx: Queryable,
  row: Pick<TranslationRow, 'id' | 'organization_id'>,
  userId: string,
) {
  const payload: RunPayload = { translationId: row.id, userId };
  const job = await ctx.jobRunner.enqueue(
    { kind: TRANSLATION_RUN_JOB, payload, organizationId: row.organization_id, subject: translationSubject(row.id) },
    tx,
  );
  await setTranslationJob(tx, row.id, job.id, ctx.clock.now());
}

export async function listTranslations(ctx: AppContext, p: Principal, organizationId: string, page: PageRequest) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const rows = await listTranslationRows(ctx.db, organizationId);
  const visible: TranslationRow[] = [];
  for (const row of rows) if (canSee(actor, await loadSpaceRow(ctx.db, row.source_space_id))) visible.push(row);
  const engine = translationEngineOf(ctx);
  return {
    ...pageArray(
      visible.map((r) => present(ctx, r, actor)),
      page,
    ),
    engine: engine ? { kind: engine.kind, instructions: engine.supportsInstructions } : null,
  };
}

export async function getTranslation(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  return present(ctx, await requireTranslation(ctx, actor, organizationId, id), actor);
}

export interface NewTranslationBody {
  language: string;
  source: { space: string; language: string };
  instructions?: unknown;
}

export async function createTranslation(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: NewTranslationBody,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'manage-translations');
  const source = await viewableSource(ctx, actor, body.source.space, organizationId);
  if (source.translation_id)
    throw badRequest('This space is itself the result of a translation: translate its source space instead');
  if (body.language === body.source.language)
    throw badRequest(`The source is already in "${body.language}": choose another language`);
  const instructions = body.instructions ?? EMPTY_INSTRUCTIONS;
  checkInstructions(ctx, instructions);
  if (await findTranslationOf(ctx.db, source.id, body.language))
    throw conflict(`This space already has a translation into "${body.language}"`);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    await insertTranslationRow(
      tx,
      {
        id,
        organizationId,
        sourceSpaceId: source.id,
        sourceLanguage: body.source.language,
        language: body.language,
        instructions,
        createdBy: p.userId,
      },
      ctx.clock.now(),
    );
    await queueRun(ctx, tx, { id, organization_id: organizationId }, p.userId);
  });
  ctx.jobRunner.wake();
  return present(ctx, (await findTranslation(ctx.db, organizationId, id))!, actor);
}

export async function updateTranslation(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  id: string,
  instructions: unknown,
) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const row = await requireTranslation(ctx, actor, organizationId, id);
  authorize(actor, 'manage-translations', organization(organizationId));
  checkInstructions(ctx, instructions);
  await setInstructions(ctx.db, row.id, instructions, ctx.clock.now());
  return present(ctx, (await findTranslation(ctx.db, organizationId, id))!, actor);
}

/** Queues a run; 409 while one is queued or running (runs of a translation go one at a time). */
export async function runTranslation(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const row = await requireTranslation(ctx, actor, organizationId, id);
  authorize(actor, 'manage-translations', organization(organizationId));
  if (row.job_state === 'queued' || row.job_state === 'running')
    throw conflict('A run of this translation is already queued or running');
  await viewableSource(ctx, actor, row.source_space_id, organizationId);
  if (await resultInTrash(ctx.db, row)) throw conflict(RESULT_IN_TRASH);
  await ctx.db.transaction((tx) => queueRun(ctx, tx, row, p.userId));
  ctx.jobRunner.wake();
}

/**
 * Deletes the translation (its memory with it) and cancels a run under way. The result space stays,
 * as an ordinary space. Returns false when there was nothing the caller could delete (204).
 */
export async function deleteTranslation(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return false;
  const row = await findTranslation(ctx.db, organizationId, id);
  if (!row || !canSee(actor, await loadSpaceRow(ctx.db, row.source_space_id))) return false;
  authorize(actor, 'manage-translations', organization(organizationId));
  if (row.job_id && (row.job_state === 'queued' || row.job_state === 'running')) await ctx.jobRunner.cancel(row.job_id);
  const deleted = await deleteTranslationRow(ctx.db, row.id);
  if (row.result_space_id)
    await updateSpaceRow(
      ctx.db,
      row.result_space_id,
      { translation_id: null, translation_source_id: null },
      ctx.clock.now(),
    );
  return deleted;
}
