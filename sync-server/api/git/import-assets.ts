import type { AppContext } from '../../context';
import { ContentDoc, type FileMeta } from '../../../shared/doc';
import type { BaselineFile, RepoFile } from '../../git-sync/layout';
import { planBatch } from '../change-request-content/apply';
import { stageImportFiles } from '../content-import/stage-files';
import { contentTypeOf } from '../../import/media-types';

/**
 * Assets the repository changed or deleted since the last sync (new ones come with the import's
 * content batch). A changed asset keeps its Folio file — same id, new bytes, size and sha256 — so
 * every page linking to it shows the new bytes: its bytes are staged in the blob store like an
 * import's files (content-import/stage-files.ts) and put in place inside the one change of the live
 * document that updates its metadata (ContentAssets.putFile). A deleted asset is deleted from the
 * space (ContentAssets.deleteFile) when no page or reusable content links to it any more. Either
 * way, an asset Folio changed since the last sync (its sha256 is not the baseline's) keeps Folio's
 * version; so does a deleted one still linked to. What is kept is said in the warnings; the next
 * export writes it back.
 */

export interface AssetChanges {
  /** Known files whose bytes changed in the repository. */
  changed: RepoFile[];
  /** Known files the repository deleted. */
  deleted: BaselineFile[];
}

export function assetChangesOf(read: {
  files: readonly RepoFile[];
  deletedFiles: readonly BaselineFile[];
}): AssetChanges {
  return { changed: read.files.filter((f) => f.id !== undefined && f.changed), deleted: [...read.deletedFiles] };
}

/** Whether any page body or reusable content of the document names the file (links hold its id). */
function linkedFiles(content: ContentDoc, ids: readonly string[]): Set<string> {
  const linked = new Set<string>();
  if (ids.length === 0) return linked;
  const texts = [
    ...content.listPageIds().map((id) => content.getMarkdown(id)),
    ...content.listReusableContents().map((r) => r.markdown),
  ];
  for (const id of ids) if (texts.some((t) => t.includes(id))) linked.add(id);
  return linked;
}

/** Applies the asset changes to the live document `docName`; answers the warnings. */
export async function applyAssetChanges(
  ctx: AppContext,
  organizationId: string,
  docName: string,
  changes: AssetChanges,
  userId: string,
): Promise<string[]> {
  const warnings: string[] = [];
  if (changes.changed.length === 0 && changes.deleted.length === 0) return warnings;
  const staged = await stageImportFiles(
    ctx,
    organizationId,
    changes.changed.map((f) => ({
      ref: f.path,
      name: f.name,
      contentType: contentTypeOf(f.name),
      bytes: Buffer.from(f.bytes),
    })),
    0,
    planBatch([]),
  );
  await staged.commit(() =>
    ctx.hub.change(
      docName,
      (doc) => {
        const content = new ContentDoc(doc, { now: () => ctx.clock.now() });
        staged.files.forEach((prepared, i) => {
          const file = changes.changed[i]!;
          const here = content.getFile(file.id!);
          if (!here) return; // Deleted in Folio: the next export deletes it from the repository.
          if (here.sha256 !== file.baseSha256) {
            warnings.push(
              `The file ${file.path} was changed both here and in the repository: the space's version was kept`,
            );
            return;
          }
          // New bytes, new size; an image's former dimensions no longer hold.
          const meta: FileMeta = {
            name: here.name,
            contentType: here.contentType,
            size: prepared.meta.size,
            sha256: prepared.meta.sha256,
          };
          content.putFile(file.id!, meta);
        });
        const linked = linkedFiles(
          content,
          changes.deleted.map((f) => f.id!),
        );
        for (const file of changes.deleted) {
          const here = content.getFile(file.id!);
          if (!here) continue;
          if (here.sha256 !== file.sha256)
            warnings.push(`The file ${file.path} was deleted in the repository but changed here: it was kept`);
          else if (linked.has(file.id!))
            warnings.push(
              `The file ${file.path} was deleted in the repository but pages here still link to it: it was kept`,
            );
          else content.deleteFile(file.id!);
        }
        staged.promote();
      },
      { userId, reason: 'git-import' },
    ),
  );
  return warnings;
}
