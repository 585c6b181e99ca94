import type { ApiClient } from '../api/client';
import type { RevisionFile } from '../api/types';

/**
 * Download URLs of a space's files, by id, for images in the preview. The
 * server signs them (clients cannot), and a freshly uploaded file appears in
 * the REST content once the next revision is made, so a miss is retried a
 * few times before giving up.
 */
export class FileUrls {
  private readonly urls = new Map<string, string>();
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly api: ApiClient,
    /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>` */
    private readonly contentPath: string,
    private readonly onResolved: () => void,
  ) {}

  /** The URL when known; otherwise starts looking it up and returns undefined. */
  get(fileId: string): string | undefined {
    const url = this.urls.get(fileId);
    if (url) return url;
    if (!this.pending.has(fileId)) void this.lookUp(fileId, 0);
    return undefined;
  }

  private async lookUp(fileId: string, attempt: number): Promise<void> {
    this.pending.set(fileId, attempt);
    try {
      const file = await this.api.request<RevisionFile>(
        `${this.contentPath}/content/files/${encodeURIComponent(fileId)}`,
      );
      this.urls.set(fileId, file.downloadURL);
      this.pending.delete(fileId);
      this.onResolved();
    } catch {
      if (attempt >= 10) return; // stays pending: the image keeps its alt text
      setTimeout(() => void this.lookUp(fileId, attempt + 1), 500 * (attempt + 1));
    }
  }
}
