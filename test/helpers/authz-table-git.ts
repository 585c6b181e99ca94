import type { OperationTable } from './authz-cases';
import { ask } from './authz-expect';
import type { World } from './authz-fixture';
import { fresh, type Params } from './authz-fresh';

/**
 * Git sync: the space's admins (`git-sync`) start imports and exports, change the automatic sync's
 * settings and remove the sync; whoever sees the space reads its Git sync info and settings. (The
 * webhook a Git host calls is authorized by the secret in its URL: SIGNED_OPERATIONS of authz-table.ts.) The repository is on an address the fixture's server may
 * not fetch (no outbound allow-list), so a queued job fails at once and touches nothing.
 */

const REPO = { url: 'http://127.0.0.1:9/matrix.git', ref: 'refs/heads/main' };
const gitSync = (_w: unknown, p: Params) => [ask.space(p.spaceId!, 'git-sync')];

const configured = new WeakMap<World, Promise<void>>();

/** The fixture space with a Git sync recorded (as an earlier import would leave it), once per world. */
function withGitSync(w: World): Promise<Params> {
  let done = configured.get(w);
  if (!done) {
    done = w.t.server.ctx.db
      .query(
        `INSERT INTO space_git_sync (space_id, url, ref, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (space_id) DO NOTHING`,
        [w.spaceId, REPO.url, REPO.ref],
      )
      .then(() => undefined);
    configured.set(w, done);
  }
  return done.then(() => ({ spaceId: w.spaceId }));
}

export const GIT_OPERATIONS: OperationTable = {
  // A fresh space each time: an allowed call records the repository on the space it names.
  importGitRepository: { params: fresh.space, body: () => REPO, checks: gitSync },
  exportToGitRepository: {
    params: fresh.space,
    body: () => ({ ...REPO, commitMessage: 'Matrix export' }),
    checks: gitSync,
  },
  getSpaceGitInfo: { params: withGitSync, checks: (_w, p) => [ask.space(p.spaceId!, 'view')] },
  deleteSpaceGitLegacyInstallation: { params: fresh.space, checks: gitSync },
  // The automatic sync's settings (Folio extension): readers see them (without the webhook URL), admins change them.
  getSpaceGitSettings: { params: withGitSync, checks: (_w, p) => [ask.space(p.spaceId!, 'view')] },
  updateSpaceGitSettings: { params: withGitSync, body: () => ({ exportOnMerge: false }), checks: gitSync },
};
