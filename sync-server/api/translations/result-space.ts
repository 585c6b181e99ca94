import type { AppContext } from '../../context';
import { languageName } from '../../../shared/languages';
import type { SpaceRow } from '../../store/spaces';
import { setResultSpace, type TranslationRow } from '../../store/translations';
import { insertSpace } from '../spaces/service';
import { copySpaceGrants } from '../../store/content-grants';

const MAX_TITLE = 50;

/**
 * Creates the result space of a translation's first run: next to its source (same collection,
 * visibility and direct grants, so the same people read it), titled after it with the language,
 * its `language` set, and naming the translation. One transaction with the translation's link to
 * it, so a run killed here either made it and recorded it, or neither.
 */
export async function createResultSpace(
  ctx: AppContext,
  translation: TranslationRow,
  source: SpaceRow,
  userId: string,
): Promise<string> {
  const suffix = ` (${languageName(translation.language)})`;
  const title = source.title.slice(0, Math.max(1, MAX_TITLE - suffix.length)).trimEnd() + suffix;
  return ctx.db.transaction(async (tx) => {
    const id = await insertSpace(
      ctx,
      tx,
      source.organization_id,
      source.parent_id,
      {
        title: title.slice(0, MAX_TITLE),
        ...(source.emoji ? { emoji: source.emoji } : {}),
        language: translation.language,
        editMode: source.edit_mode,
        defaultLevel: source.default_level,
        visibility: source.visibility,
      },
      userId,
    );
    await copySpaceGrants(tx, source.id, id);
    await tx.query('UPDATE spaces SET translation_id = $2, translation_source_id = $3 WHERE id = $1', [
      id,
      translation.id,
      source.id,
    ]);
    await setResultSpace(tx, translation.id, id);
    return id;
  });
}
