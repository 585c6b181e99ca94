import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { recordBlobOwner, spaceOwnsBlob } from '../../store/blob-owners';
import { BlobInterruptedError, BlobSizeError } from '../../store/blob-store';
import { downloadPayload, uploadPayload, type Storage } from '../../store/file-storage';
import { claimUploadSlot, insertUploadSlot, loadUploadSlot } from '../../store/uploads';
import { requireOrgPermission } from '../authorize';

/** How long an upload URL stays usable. */
const UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface UploadRequest {
  file: { name: string; type: string; size: number };
  kind: string;
}

/**
 * Hands out a signed, single-use upload URL (policy's `upload-files`: files
 * are only useful inside content one can edit).
 */
export async function createUploadUrl(
  ctx: AppContext,
  storage: Storage,
  p: Principal,
  organizationId: string,
  body: UploadRequest,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'upload-files');
  const key = newId(24);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_TTL_MS);
  await insertUploadSlot(ctx.db, {
    key,
    organizationId,
    kind: body.kind,
    name: body.file.name,
    contentType: body.file.type,
    declaredSize: body.file.size,
    createdBy: p.userId,
    createdAt: now,
    expiresAt,
  });
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const query = new URLSearchParams({
    expires: String(expires),
    signature: storage.signer.sign(uploadPayload(key, expires)),
  });
  return { object: 'storage-signed-url' as const, url: ctx.urls.api(`/storage/uploads/${key}?${query}`), key };
}

/**
 * Receives the bytes of a signed upload, streamed to disk (never held in
 * memory). The signature and expiry are checked before anything is read from
 * the slot; the slot takes exactly the declared size, once (a second PUT is a
 * 409, so a leaked URL cannot swap the bytes). A Content-Length that differs
 * is refused before a byte is read, and a body longer than declared is cut off
 * as soon as it overflows. The organization the slot was made for then owns
 * the blob: only its spaces can hand out links to these bytes.
 */
export async function receiveUpload(
  ctx: AppContext,
  storage: Storage,
  upload: { key: string; expires: number; signature: string },
  body: Readable,
  contentLength: number | undefined,
) {
  const { key, expires, signature } = upload;
  storage.signer.requireValidLink(uploadPayload(key, expires), signature, expires, ctx.clock.now(), 'upload URL');
  const slot = await loadUploadSlot(ctx.db, key);
  if (!slot) throw notFound('Upload');
  if (slot.sha256) throw conflict('This upload URL has already been used');
  const declared = Number(slot.declared_size);
  const exactly = `The upload must be exactly the declared ${declared} bytes`;
  if (contentLength !== undefined && contentLength !== declared) throw badRequest(`${exactly}; got ${contentLength}`);
  let blob: { sha256: string; size: number };
  try {
    blob = await storage.blobs.putStream(body, declared);
  } catch (err) {
    if (err instanceof BlobSizeError) throw badRequest(`${exactly}; got ${err.got ?? 'more'}`);
    if (err instanceof BlobInterruptedError) throw badRequest('The upload stopped before its end');
    throw err;
  }
  // Two PUTs racing on one slot: only one claims it (and records the owner with it).
  const claimed = await ctx.db.transaction(async (tx) => {
    if (!(await claimUploadSlot(tx, key, blob, ctx.clock.now()))) return false;
    await recordBlobOwner(tx, slot.organization_id, blob.sha256);
    return true;
  });
  if (!claimed) throw conflict('This upload URL has already been used');
  return { key, name: slot.name, contentType: slot.content_type, size: blob.size, sha256: blob.sha256 };
}

/** A download link's parts, from its path and query. */
export interface DownloadLink {
  sha256: string;
  spaceId: string;
  contentType: string;
  expires: number;
  signature: string;
}

/**
 * Checks a download link and returns the blob's size: 403 when the signature
 * does not cover it or it has expired; 404 when the space (deleted or gone)
 * or its organization does not own the blob — a digest copied from another
 * organization's content into one's own space signs links that serve nothing —
 * or when the blob is missing.
 */
export async function checkDownload(ctx: AppContext, storage: Storage, link: DownloadLink): Promise<number> {
  storage.signer.requireValidLink(
    downloadPayload(link),
    link.signature,
    link.expires,
    ctx.clock.now(),
    'download link',
  );
  if (!(await spaceOwnsBlob(ctx.db, link.spaceId, link.sha256))) throw notFound('File');
  const size = await storage.blobs.size(link.sha256);
  if (size === undefined) throw notFound('File');
  return size;
}
