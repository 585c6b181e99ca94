import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { uploadPayload, type Storage } from '../../store/file-storage';
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
 * Receives the bytes of a signed upload. The signature and expiry are checked
 * before anything is read from the slot; the slot takes exactly the declared
 * size, once (a second PUT is a 409, so a leaked URL cannot swap the bytes).
 */
export async function receiveUpload(
  ctx: AppContext,
  storage: Storage,
  key: string,
  expires: number,
  signature: string,
  bytes: Buffer,
) {
  storage.signer.requireValidLink(uploadPayload(key, expires), signature, expires, ctx.clock.now(), 'upload URL');
  const slot = await loadUploadSlot(ctx.db, key);
  if (!slot) throw notFound('Upload');
  if (slot.sha256) throw conflict('This upload URL has already been used');
  if (bytes.byteLength !== Number(slot.declared_size)) {
    throw badRequest(`The upload must be exactly the declared ${slot.declared_size} bytes; got ${bytes.byteLength}`);
  }
  const { sha256, size } = await storage.blobs.put(bytes);
  // Two PUTs racing on one slot: only one claims it.
  if (!(await claimUploadSlot(ctx.db, key, { sha256, size }, ctx.clock.now())))
    throw conflict('This upload URL has already been used');
  return { key, name: slot.name, contentType: slot.content_type, size, sha256 };
}

/** Checks a download URL's signature and that the blob exists. */
export async function checkDownload(
  storage: Storage,
  sha256: string,
  signature: string,
  payload: string,
): Promise<number> {
  if (!storage.signer.verify(payload, signature)) throw forbidden('Invalid file signature');
  const size = await storage.blobs.size(sha256);
  if (size === undefined) throw notFound('File');
  return size;
}
