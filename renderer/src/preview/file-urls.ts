import type { ApiClient } from '../api/client';
import type { RevisionFile } from '../api/types';

/**
 * Download URLs of a space's files, by id, for images in the preview. The
 * server signs them (clients cannot), and a freshly uploaded file appears in
 * the REST content once the next revision is made, so a miss is retried a
 * few times before giving up. A file this window has just uploaded is shown
 * meanwhile from its bytes (an object URL), so it never shows broken.
 */
export class FileUrls {
  private readonly urls = new Map<string, string>();
  private readonly pending = new Map<string, number>();
  private readonly locals = new Set<string>();

  constructor(
    private readonly api: ApiClient,
    /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>` */
    private readonly contentPath: string,
    private readonly onResolved: () => void,
  ) {}

  /**
   * Shows `fileId` from the bytes just uploaded until the server's URL is
   * known (after the next revision); then the server's URL replaces it.
   */
  remember(fileId: string, bytes: Blob): void {
    if (this.urls.has(fileId)) return;
    const local = URL.createObjectURL(bytes);
    this.urls.set(fileId, local);
    this.locals.add(local);
    this.onResolved();
    // The revision that lists the file comes after the upload's edit goes quiet: start looking later.
    if (!this.pending.has(fileId)) {
      this.pending.set(fileId, 0);
      setTimeout(() => void this.lookUp(fileId, 0), 1000);
    }
  }

  /** Frees the object URLs of uploaded files (the view that showed them is gone). */
  destroy(): void {
    for (const url of this.locals) URL.revokeObjectURL(url);
    this.locals.clear();
  }

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
