import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { findGitSync } from '../../store/git-sync';
import { loadSpaceRow } from '../../store/spaces';
import { queueAutoOperation } from './auto-queue';
import { autoImportUser, NO_AUTO_USER } from './auto-user';
import { isBranch, pushedRefs } from './push-payload';
import { webhookSecretMatches } from './webhook-secret';

/**
 * A push announced on a space's webhook URL (`POST /v1/git/hooks/{spaceId}/{secret}`, no token:
 * the URL is the credential): queues an import of the space's branch, unless the push was to
 * another ref. It never reads the repository itself, so a forged call can do no more than ask for
 * an import that finds nothing new.
 */

export interface HookAnswer {
  queued: boolean;
  reason?: string;
}

/** Every refusal is this one 404: without the URL, a caller learns nothing (not even that the space exists). */
const refused = () => notFound('Webhook');

/** At most this much of a ref a caller sent is repeated in the answer. */
const shown = (ref: string) => (ref.length > 100 ? `${ref.slice(0, 100)}…` : ref);

export async function receiveGitHook(
  ctx: AppContext,
  spaceId: string,
  secret: string,
  body: unknown,
): Promise<HookAnswer> {
  const row = await findGitSync(ctx.db, spaceId);
  if (!row?.import_on_push || !webhookSecretMatches(ctx, row, secret)) throw refused();
  const space = await loadSpaceRow(ctx.db, spaceId);
  if (!space || space.deleted_at) throw refused();
  const refs = pushedRefs(body);
  if (refs && !refs.some((ref) => isBranch(ref, row.ref)))
    return {
      queued: false,
      reason: `The push was to ${refs.slice(0, 3).map(shown).join(', ')}${refs.length > 3 ? '…' : ''}, not to the synced branch ${row.ref}`,
    };
  const userId = await autoImportUser(ctx, row, space);
  if (!userId) {
    ctx.log.warn({ spaceId }, `git webhook: ${NO_AUTO_USER}`);
    return { queued: false, reason: `Nothing was queued: ${NO_AUTO_USER}` };
  }
  await queueAutoOperation(ctx, { spaceId, organizationId: space.organization_id, direction: 'import', userId });
  ctx.log.info({ spaceId }, 'git webhook: import queued');
  return { queued: true };
}
