import { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { newEntityId } from '../../../shared/doc';
import { recordBlobOwner } from '../../store/blob-owners';
import { fetchOutbound, OutboundError, parseAllowList } from '../../outbound';
import { BatchError } from './apply-error';
import type { BatchPlan, PreparedFile } from './apply';
import type { ContentChange } from './schemas';

/** GitBook's limit of an inline (base64) file. */
export const MAX_INLINE_BYTES = 1024 * 1024;
/** Largest file fetched from a URL. */
export const MAX_FETCHED_BYTES = 10 * 1024 * 1024;

/**
 * The bytes of every insert_files file: base64 decoded, or fetched through
 * the outbound fetcher (the only way the server fetches a URL; SSRF-safe),
 * stored in the blob store and owned by the space's organization. Each file
 * gets its id (and its ref) in the plan before any document is touched. Blobs
 * of a batch that is refused later stay unreferenced (content-addressed; no
 * document ever names them).
 */
export async function prepareFiles(
  ctx: AppContext,
  organizationId: string,
  changes: readonly ContentChange[],
  plan: BatchPlan,
): Promise<PreparedFile[]> {
  const all: PreparedFile[] = [];
  const allow = parseAllowList(ctx.config.outboundAllow);
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    const prepared: PreparedFile[] = [];
    for (const [j, file] of change.files.entries()) {
      const where = `body.changes[${i}].files[${j}]`;
      let bytes: Buffer;
      let contentType = file.contentType;
      if (file.base64 !== undefined) {
        bytes = Buffer.from(file.base64, 'base64');
        if (bytes.length > MAX_INLINE_BYTES)
          throw new BatchError(400, `${where}.base64: must not be more than ${MAX_INLINE_BYTES} bytes`);
      } else {
        try {
          const res = await fetchOutbound(file.url!, { allow, maxBytes: MAX_FETCHED_BYTES });
          bytes = res.body;
          contentType ??= res.contentType?.split(';')[0]?.trim() || undefined;
        } catch (err) {
          if (err instanceof OutboundError) throw new BatchError(400, `${where}.url: ${err.message}`);
          throw err;
        }
      }
      const blob = await ctx.storage.blobs.putStream(Readable.from([bytes]), bytes.length);
      await recordBlobOwner(ctx.db, organizationId, blob.sha256);
      const id = newEntityId();
      if (file.ref !== undefined) plan.refs.files.set(file.ref.replace(/^\.\//, ''), id);
      prepared.push({
        id,
        ...(file.ref !== undefined ? { ref: file.ref } : {}),
        meta: {
          name: file.name,
          contentType: contentType ?? 'application/octet-stream',
          size: blob.size,
          sha256: blob.sha256,
        },
      });
    }
    plan.files.set(i, prepared);
    all.push(...prepared);
  }
  return all;
}
