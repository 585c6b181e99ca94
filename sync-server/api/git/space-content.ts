import { buffer } from 'node:stream/consumers';
import type { AppContext } from '../../context';
import type { RevisionRecord, StoredPage } from '../../docs/revision-store';
import type { StoredFile } from '../../docs/revision-view';
import type { Baseline, SpaceContent, SpacePage } from '../../git-sync/layout';

/**
 * A revision as the layout codec's writer takes it: the page tree (computed pages are Folio's own
 * and stay out of the repository) and the files, whose bytes the writer asks for synchronously —
 * so the bytes of every file the last sync did not write as it is now are read beforehand (an
 * unchanged file is never read).
 */

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function spacePage(p: StoredPage): SpacePage | undefined {
  const kind =
    p.type === 'group' ? 'group' : p.type === 'link' ? 'link' : p.type === 'document' ? 'document' : undefined;
  if (!kind) return undefined;
  const description = str(p.description);
  const icon = str(p.icon);
  const emoji = str(p.emoji);
  const href = str(p.href);
  return {
    id: p.id,
    kind,
    title: String(p.title ?? ''),
    slug: String(p.slug ?? ''),
    markdown: String(p.markdown ?? ''),
    ...(description ? { description } : {}),
    ...(icon ? { icon } : {}),
    ...(emoji ? { emoji } : {}),
    ...(href ? { href } : {}),
    ...(p.hidden === true ? { hidden: true } : {}),
    children: (p.pages ?? []).flatMap((c) => spacePage(c) ?? []),
  };
}

export async function spaceContent(
  ctx: AppContext,
  revision: RevisionRecord,
  previous: Baseline | undefined,
): Promise<SpaceContent> {
  const known = new Set((previous?.files ?? []).map((f) => `${f.id}\n${f.sha256}`));
  const files = revision.files as StoredFile[];
  const bytes = new Map<string, Uint8Array>();
  for (const f of files)
    if (!known.has(`${f.id}\n${f.sha256}`)) bytes.set(f.id, await buffer(await ctx.storage.blobs.read(f.sha256)));
  return {
    pages: revision.pages.flatMap((p) => spacePage(p) ?? []),
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      sha256: f.sha256,
      bytes: () => {
        const b = bytes.get(f.id);
        // Read above for every file the baseline does not hold as it is: asking for another is a codec bug.
        if (!b) throw new Error(`the bytes of file ${f.id} were not read: the last sync wrote it unchanged`);
        return b;
      },
    })),
  };
}
