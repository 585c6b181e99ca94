import type { AppContext } from '../../context';
import { pageAtFormerPath as atFormerPath } from '../../docs/former-paths';
import type { RevisionView } from '../../docs/revision-view';
import type { StoredPage } from '../../docs/revision-store';

/** The page that used to live at `path` (see docs/former-paths.ts, shared with published sites). */
export function pageAtFormerPath(ctx: AppContext, view: RevisionView, path: string): Promise<StoredPage | undefined> {
  return atFormerPath(ctx.hub, view, path);
}
