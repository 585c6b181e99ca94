import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { isLanguage } from '../../../shared/languages';
import {
  deleteGlossaryRow,
  findGlossaryRow,
  insertGlossaryRow,
  listGlossaryRows,
  updateGlossaryRow,
} from '../../store/glossary';
import { requireOrgPermission } from '../authorize';
import { presentGlossaryEntry } from './present';

/**
 * The organization's glossary: members who see the organization read it; changing it takes
 * `manage-translations`. A batch of operations applies as one transaction: all or nothing.
 */

export type GlossaryOperation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

/** Terms keyed by known language codes, at least one, each trimmed and non-empty. */
function checkTranslations(translations: Record<string, string>, at: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, term] of Object.entries(translations)) {
    if (!isLanguage(code)) throw badRequest(`operations[${at}].translations: "${code}" is not a language code`);
    const trimmed = term.trim();
    if (!trimmed) throw badRequest(`operations[${at}].translations.${code}: the term is empty`);
    out[code] = trimmed;
  }
  if (Object.keys(out).length === 0) throw badRequest(`operations[${at}].translations: give at least one term`);
  return out;
}

export async function listGlossary(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  page: PageRequest,
  orderBy?: string,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const rows = await listGlossaryRows(ctx.db, organizationId, orderBy);
  return pageArray(
    rows.map((r) => presentGlossaryEntry(ctx, r)),
    page,
  );
}

export async function getGlossaryEntry(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const row = await findGlossaryRow(ctx.db, organizationId, id);
  if (!row) throw notFound('Glossary entry');
  return presentGlossaryEntry(ctx, row);
}

export async function updateGlossary(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  operations: readonly GlossaryOperation[],
): Promise<void> {
  await requireOrgPermission(ctx.db, p, organizationId, 'manage-translations');
  const checked = operations.map((op, i) =>
    op.type === 'delete' ? op : { ...op, translations: checkTranslations(op.translations, i) },
  );
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    for (const [i, op] of checked.entries()) {
      if (op.type === 'insert') {
        await insertGlossaryRow(tx, { id: newId(), organizationId, translations: op.translations }, now);
        continue;
      }
      if (!(await findGlossaryRow(tx, organizationId, op.id)))
        throw notFound(`Glossary entry ${op.id} (operations[${i}])`);
      if (op.type === 'update') await updateGlossaryRow(tx, op.id, op.translations, now);
      else await deleteGlossaryRow(tx, op.id);
    }
  });
}
