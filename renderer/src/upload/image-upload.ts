import type { ContentDoc } from '../../../shared/doc/content-doc';
import { newEntityId } from '../../../shared/doc/ids';
import type { ApiClient } from '../api/client';
import type { UploadedFile, UploadSlot } from '../api/types';

/**
 * Image upload into a page: the bytes go to the server's storage (a signed
 * upload URL from generateStorageUploadURL, then a PUT of the bytes), the
 * file's metadata goes into the content document's files (so it syncs and
 * merges like any edit), and the page gets `![name](/files/<id>)`.
 */

/** Image types the preview (and the server's inline downloads) render. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml'];

/** Uploads `file` into the organization's storage and registers it in the content; returns the markdown that shows it. */
export async function uploadImage(
  api: ApiClient,
  organizationId: string,
  content: ContentDoc,
  file: File,
): Promise<string> {
  if (!IMAGE_TYPES.includes(file.type))
    throw new Error(`“${file.name}” is not an image this app can show (${file.type || 'unknown type'})`);
  if (file.size === 0) throw new Error(`“${file.name}” is empty`);
  const slot = await api.request<UploadSlot>(`/orgs/${organizationId}/storage/upload`, {
    method: 'POST',
    body: { file: { name: file.name, type: file.type, size: file.size }, kind: 'organization_file' },
  });
  const stored = await api.putBytes<UploadedFile>(slot.url, file, file.type);
  const size = await imageSize(file);
  const id = newEntityId();
  content.putFile(id, {
    name: stored.name,
    contentType: stored.contentType,
    size: stored.size,
    sha256: stored.sha256,
    ...size,
  });
  return imageMarkdown(file.name, id);
}

/** The markdown of an image file reference (brackets in the name would end the alt text early). */
export function imageMarkdown(name: string, fileId: string): string {
  const alt = name.replace(/\.[a-z0-9]+$/i, '').replace(/[[\]\\]/g, '');
  return `![${alt}](/files/${fileId})`;
}

async function imageSize(file: File): Promise<{ width?: number; height?: number }> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return {}; // SVG and undecodable images: dimensions are optional
  }
}
