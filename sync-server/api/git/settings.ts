import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { decide } from '../../policy';
import { findGitSync, saveGitSyncSettings, type GitSyncRow } from '../../store/git-sync';
import { requireSpace } from '../spaces/service';
import type { GitSettingsChange } from './settings-schemas';
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret, webhookUrl } from './webhook-secret';

/**
 * The settings of a Git sync that keeps itself up to date (Folio extension): export after every
 * merge, import on a push announced on the space's secret webhook URL, import every few minutes.
 * Whoever sees the space reads them; the webhook URL (a secret) and every change are for who may
 * sync it (`git-sync`). A space without a Git sync has no settings: 404, as getSpaceGitInfo.
 */

const NO_SYNC = 'Git sync of this space (no Git provider is set up on it)';

/** The settings as the API shows them; `webhookUrl` only to who may sync the space. */
function presentSettings(ctx: AppContext, row: GitSyncRow, showSecret: boolean) {
  const secret = showSecret ? openWebhookSecret(ctx, row) : undefined;
  return {
    exportOnMerge: row.export_on_merge,
    importOnPush: row.import_on_push,
    pollMinutes: row.poll_minutes,
    ...(showSecret ? { webhookUrl: secret ? webhookUrl(ctx, row.space_id, secret) : null } : {}),
    lastPolledAt: row.last_polled_at?.toISOString() ?? null,
  };
}

export async function gitSettings(ctx: AppContext, p: Principal, spaceId: string) {
  const { actor, resource } = await requireSpace(ctx, p, spaceId);
  const row = await findGitSync(ctx.db, spaceId);
  if (!row) throw notFound(NO_SYNC);
  return presentSettings(ctx, row, decide(actor, 'git-sync', resource).allowed);
}

/**
 * Changes the settings; the caller becomes who automatic imports run as. The webhook's secret is
 * made when importOnPush is first enabled, and anew on `rotateWebhookSecret`.
 */
export async function updateGitSettings(ctx: AppContext, p: Principal, spaceId: string, change: GitSettingsChange) {
  await requireSpace(ctx, p, spaceId, 'git-sync');
  const row = await findGitSync(ctx.db, spaceId);
  if (!row) throw notFound(NO_SYNC);
  const needsSecret = change.rotateWebhookSecret === true || (change.importOnPush === true && !row.webhook_secret);
  const saved = await saveGitSyncSettings(ctx.db, spaceId, {
    ...(change.exportOnMerge !== undefined ? { exportOnMerge: change.exportOnMerge } : {}),
    ...(change.importOnPush !== undefined ? { importOnPush: change.importOnPush } : {}),
    ...(change.pollMinutes !== undefined ? { pollMinutes: change.pollMinutes } : {}),
    ...(needsSecret ? { webhookSecret: sealWebhookSecret(ctx, spaceId, newWebhookSecret()) } : {}),
    autoUserId: p.userId,
  });
  // Removed by someone else in between.
  if (!saved) throw notFound(NO_SYNC);
  return presentSettings(ctx, saved, true);
}
