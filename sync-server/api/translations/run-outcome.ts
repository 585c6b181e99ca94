import type { Queryable } from '../../store/db';
import { loadSpaceRow } from '../../store/spaces';

/** What a translation run leaves on its job (and the API shows as `run`). */
export interface RunOutcome {
  /** The result revision the run made (null: nothing changed in the result space). */
  revision: string | null;
  /** Pages whose text went to the engine, and the words sent. */
  pages: number;
  words: number;
  /** Result pages edited by hand since the last run: left as they are, the new translation proposed here. */
  review?: { changeRequest: string; pages: string[] };
  warnings: string[];
}

export const TRANSLATION_RUN_JOB = 'translation-run';
export const translationSubject = (translationId: string) => `translation:${translationId}`;

export interface RunPayload {
  translationId: string;
  /** Who asked for the run: the result space's revisions and change requests are theirs. */
  userId: string;
}

/** Why a translation whose result space is in the trash does not run (said by the API and by a queued run). */
export const RESULT_IN_TRASH =
  'The translated space is in the trash: restore it to run the translation again, or delete the translation';

/** Whether the translation's result space (if it has one yet) is in the trash. */
export async function resultInTrash(db: Queryable, row: { result_space_id: string | null }): Promise<boolean> {
  return row.result_space_id !== null && Boolean((await loadSpaceRow(db, row.result_space_id))?.deleted_at);
}
