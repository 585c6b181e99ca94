import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { requireFullMember, requireOrgMember, requireOrgRole } from '../../policy/guards';
import { queryOne } from '../../store/db';
import { uploadPayload, type Storage } from './storage';

/** How long an upload URL stays usable. */
const UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface UploadRequest {
  file: { name: string; type: string; size: number };
  kind: string;
}

/**
 * Hands out a signed, single-use upload URL. Uploading needs the "edit" role
 * in the organization: files are only useful inside content one can edit.
 */
export async function createUploadUrl(
  ctx: AppContext,
  storage: Storage,
  p: Principal,
  organizationId: string,
  body: UploadRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireFullMember(m, 'upload files');
  requireOrgRole(m, 'edit', 'upload files');
  const key = newId(24);
  const expiresAt = new Date(ctx.clock.now().getTime() + UPLOAD_TTL_MS);
  await ctx.db.query(
    `INSERT INTO storage_uploads (key, organization_id, kind, name, content_type, declared_size, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      key,
      organizationId,
      body.kind,
      body.file.name,
      body.file.type,
      body.file.size,
      p.userId,
      ctx.clock.now(),
      expiresAt,
    ],
  );
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const query = new URLSearchParams({
    expires: String(expires),
    signature: storage.signer.sign(uploadPayload(key, expires)),
  });
  return { object: 'storage-signed-url' as const, url: ctx.urls.api(`/storage/uploads/${key}?${query}`), key };
}

interface UploadRow {
  key: string;
  name: string;
  content_type: string;
  declared_size: number;
  sha256: string | null;
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
  const slot = await queryOne<UploadRow>(
    ctx.db,
    'SELECT key, name, content_type, declared_size, sha256 FROM storage_uploads WHERE key = $1',
    [key],
  );
  if (!slot) throw notFound('Upload');
  if (slot.sha256) throw conflict('This upload URL has already been used');
  if (bytes.byteLength !== Number(slot.declared_size)) {
    throw badRequest(`The upload must be exactly the declared ${slot.declared_size} bytes; got ${bytes.byteLength}`);
  }
  const { sha256, size } = await storage.blobs.put(bytes);
  const claimed = await ctx.db.query(
    'UPDATE storage_uploads SET sha256 = $2, size = $3, uploaded_at = $4 WHERE key = $1 AND sha256 IS NULL RETURNING key',
    [key, sha256, size, ctx.clock.now()],
  );
  // Two PUTs racing on one slot: only one claims it.
  if (claimed.length === 0) throw conflict('This upload URL has already been used');
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
