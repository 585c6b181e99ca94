import { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { newEntityId } from '../../../shared/doc';
import { claimBlobOwners, recordBlobOwners, releaseBlobOwners } from '../../store/blob-owners';
import type { StagedBlob } from '../../store/blob-store';
import { contentTypeEssence } from '../../store/file-fields';
import { fetchOutbound, OutboundError, parseAllowList } from '../../outbound';
import { BatchError } from './apply-error';
import type { BatchPlan, PreparedFile } from './apply';
import type { ContentChange } from './schemas';

/** GitBook's limit of an inline (base64) file. */
export const MAX_INLINE_BYTES = 1024 * 1024;
/** Largest file fetched from a URL. */
export const MAX_FETCHED_BYTES = 10 * 1024 * 1024;

/**
 * The files of a batch, staged: their bytes are hashed and written outside
 * the blob store, and they appear in it (owned by the space's organization)
 * only if the batch is applied. A refused batch leaves no blob and no row.
 */
export interface StagedFiles {
  /** Every insert_files file (also in the plan, by change), in batch order. */
  files: PreparedFile[];
  /**
   * Runs `apply`, the batch's document change, which must call `promote`
   * once the batch is found valid, before that change is committed. If
   * `apply` fails before `promote`, the staged bytes and the ownership rows
   * recorded for them are removed again.
   */
  commit<T>(apply: () => Promise<T>): Promise<T>;
  /**
   * Puts the staged bytes in the blob store. Synchronous, so it can run inside
   * the document change after the batch was applied and before it is
   * committed: no document ever names bytes that are not in place.
   */
  promote(): void;
}

/**
 * The bytes of every insert_files file: base64 decoded, or fetched through
 * the outbound fetcher (the only way the server fetches a URL; SSRF-safe),
 * staged (see StagedFiles). Each file gets its id (and its ref) in the plan
 * before any document is touched. A failure here discards what was staged.
 */
export async function prepareFiles(
  ctx: AppContext,
  organizationId: string,
  changes: readonly ContentChange[],
  plan: BatchPlan,
): Promise<StagedFiles> {
  const all: PreparedFile[] = [];
  const staged: StagedBlob[] = [];
  const { blobs } = ctx.storage;
  const discard = () => Promise.all(staged.map((s) => blobs.discard(s)));
  try {
    const allow = parseAllowList(ctx.config.outboundAllow);
    for (const [i, change] of changes.entries()) {
      if (change.operation !== 'insert_files') continue;
      const prepared: PreparedFile[] = [];
      for (const [j, file] of change.files.entries()) {
        const where = `body.changes[${i}].files[${j}]`;
        const { bytes, contentType } = await fileBytes(file, where, allow);
        const blob = await blobs.stage(Readable.from([bytes]), bytes.length);
        staged.push(blob);
        const id = newEntityId();
        if (file.ref !== undefined) plan.refs.files.set(file.ref.replace(/^\.\//, ''), id);
        prepared.push({
          id,
          ...(file.ref !== undefined ? { ref: file.ref } : {}),
          meta: { name: file.name, contentType, size: blob.size, sha256: blob.sha256 },
        });
      }
      plan.files.set(i, prepared);
      all.push(...prepared);
    }
  } catch (err) {
    await discard();
    throw err;
  }
  return stagedFiles(ctx, organizationId, staged, all);
}

/**
 * StagedFiles over blobs already staged (see StagedFiles): owned before the document names them,
 * put in place by `promote`, and released (if never promoted) and discarded when `commit` ends.
 */
export function stagedFiles(
  ctx: AppContext,
  organizationId: string,
  staged: readonly StagedBlob[],
  files: PreparedFile[],
): StagedFiles {
  const { blobs } = ctx.storage;
  const digests = staged.map((s) => s.sha256);
  let promoted = false;
  return {
    files,
    promote() {
      // Set first: once any blob may be in place, its ownership rows stay (the collector tidies up).
      promoted = true;
      for (const blob of staged) blobs.promote(blob);
    },
    async commit(apply) {
      try {
        // Owned before the document names them, so a crash right after its commit leaves nothing unowned.
        const created = await claimBlobOwners(ctx.db, organizationId, digests);
        try {
          return await apply();
        } catch (err) {
          if (!promoted) await releaseBlobOwners(ctx.db, organizationId, created);
          throw err;
        } finally {
          // A refused batch of the same organization with the same bytes may have released a row this one relied on.
          if (promoted) await recordBlobOwners(ctx.db, organizationId, digests);
        }
      } finally {
        await Promise.all(staged.map((s) => blobs.discard(s)));
      }
    },
  };
}

/** The bytes of one file and the type it is stored as. */
async function fileBytes(
  file: Extract<ContentChange, { operation: 'insert_files' }>['files'][number],
  where: string,
  allow: ReturnType<typeof parseAllowList>,
): Promise<{ bytes: Buffer; contentType: string }> {
  if (file.base64 !== undefined) {
    const bytes = Buffer.from(file.base64, 'base64');
    if (bytes.length > MAX_INLINE_BYTES)
      throw new BatchError(400, `${where}.base64: must not be more than ${MAX_INLINE_BYTES} bytes`);
    return { bytes, contentType: file.contentType ?? 'application/octet-stream' };
  }
  try {
    const res = await fetchOutbound(file.url!, { allow, maxBytes: MAX_FETCHED_BYTES });
    // The server's type only when it is a media type a download link can carry.
    const contentType = file.contentType ?? contentTypeEssence(res.contentType) ?? 'application/octet-stream';
    return { bytes: res.body, contentType };
  } catch (err) {
    if (err instanceof OutboundError) throw new BatchError(400, `${where}.url: ${err.message}`);
    throw err;
  }
}
