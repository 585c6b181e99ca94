import * as Y from 'yjs';
import { isValidEntityId, newEntityId } from './ids';
import { FILE, REUSABLE, childMap, childText, filesRoot, reusableRoot, variablesRoot } from './keys';
import { observeContent, type ContentChange } from './observe';
import { ContentDocError } from './page-ops';
import { readFile, readReusable, storableText } from './read';
import { setTextMinimal } from './text-diff';
import type { FileData, FileMeta, ReusableContentData } from './types';

/** GitBook's VariableValue string limit. */
const MAX_VARIABLE_LENGTH = 256;

const byNameThenId = (a: { id: string; name?: string; title?: string }, b: typeof a) => {
  const ka = a.name ?? a.title ?? '';
  const kb = b.name ?? b.title ?? '';
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/**
 * The non-page half of ContentDoc: files (metadata only; bytes live in the
 * blob store), variables and reusable contents, plus the shared plumbing
 * (transactions, clock, change observation). Kept apart so each file stays
 * one responsibility; use it through ContentDoc.
 */
export class ContentAssets {
  protected constructor(
    /** The underlying Y.Doc. */
    readonly ydoc: Y.Doc,
    protected readonly now: () => Date,
    private readonly origin: unknown,
  ) {}

  /** Runs `fn` in one Yjs transaction tagged with this accessor's origin. */
  protected transact(fn: () => void): void {
    this.ydoc.transact(fn, this.origin);
  }

  /** Now as an ISO 8601 string. */
  protected stamp(): string {
    return this.now().toISOString();
  }

  /**
   * Calls `cb` once per transaction that changed the content, with what it
   * touched (page ids, file ids, ...). Returns the unsubscribe function.
   */
  observeChanges(cb: (change: ContentChange, transaction: Y.Transaction) => void): () => void {
    return observeContent(this.ydoc, cb);
  }

  /** Creates or replaces a file's metadata. */
  putFile(id: string, meta: FileMeta): void {
    if (!isValidEntityId(id)) throw new ContentDocError('invalid', `invalid file id "${id}"`);
    if (!meta.name) throw new ContentDocError('invalid', 'a file needs a name');
    this.transact(() => {
      const files = filesRoot(this.ydoc);
      let map = childMap(files, id);
      if (!map) {
        map = new Y.Map<unknown>();
        files.set(id, map);
      }
      const fields: Record<string, unknown> = { ...meta };
      for (const key of Object.values(FILE)) {
        const v = fields[key];
        if (v === undefined) map.delete(key);
        else if (map.get(key) !== v) map.set(key, v);
      }
    });
  }

  /** One file's metadata, or undefined. */
  getFile(id: string): FileData | undefined {
    const map = childMap(filesRoot(this.ydoc), id);
    return map && readFile(id, map);
  }

  /** Deletes a file's metadata (a no-op when missing). */
  deleteFile(id: string): void {
    this.transact(() => filesRoot(this.ydoc).delete(id));
  }

  /** Every file, sorted by name then id. */
  listFiles(): FileData[] {
    const out: FileData[] = [];
    filesRoot(this.ydoc).forEach((v, id) => {
      const file = v instanceof Y.Map ? readFile(id, v) : undefined;
      if (file) out.push(file);
    });
    return out.sort(byNameThenId);
  }

  /** Sets a variable (GitBook limits values to 256 characters). */
  setVariable(name: string, value: string): void {
    if (name === '') throw new ContentDocError('invalid', 'a variable needs a name');
    if (typeof value !== 'string' || value.length > MAX_VARIABLE_LENGTH)
      throw new ContentDocError('invalid', `variable values are strings of at most ${MAX_VARIABLE_LENGTH} characters`);
    this.transact(() => variablesRoot(this.ydoc).set(name, value));
  }

  /** Deletes a variable (a no-op when missing). */
  deleteVariable(name: string): void {
    this.transact(() => variablesRoot(this.ydoc).delete(name));
  }

  /** All variables, keys sorted (so every replica serializes the same JSON). */
  variables(): Record<string, string> {
    return readVariables(variablesRoot(this.ydoc));
  }

  /** Creates a reusable content and returns its id. */
  createReusableContent(input: { id?: string; title: string; markdown?: string }): string {
    const id = input.id ?? newEntityId();
    if (!isValidEntityId(id)) throw new ContentDocError('invalid', `invalid reusable content id "${id}"`);
    this.transact(() => {
      const root = reusableRoot(this.ydoc);
      if (root.has(id)) throw new ContentDocError('conflict', `reusable content "${id}" already exists`);
      const map = new Y.Map<unknown>();
      map.set(REUSABLE.title, input.title);
      map.set(REUSABLE.body, new Y.Text(input.markdown ?? ''));
      root.set(id, map);
    });
    return id;
  }

  /** Updates a reusable content's title and/or markdown (minimal text diff, like setMarkdown). */
  updateReusableContent(id: string, patch: { title?: string; markdown?: string }): void {
    this.transact(() => {
      const map = childMap(reusableRoot(this.ydoc), id);
      if (!map) throw new ContentDocError('not-found', `reusable content "${id}" does not exist`);
      if (patch.title !== undefined) map.set(REUSABLE.title, patch.title);
      if (patch.markdown !== undefined) {
        const body = childText(map, REUSABLE.body);
        if (body) setTextMinimal(body, patch.markdown);
        else map.set(REUSABLE.body, new Y.Text(patch.markdown));
      }
    });
  }

  /** Deletes a reusable content (a no-op when missing). */
  deleteReusableContent(id: string): void {
    this.transact(() => reusableRoot(this.ydoc).delete(id));
  }

  /** One reusable content, or undefined. */
  getReusableContent(id: string): ReusableContentData | undefined {
    const map = childMap(reusableRoot(this.ydoc), id);
    return map && readReusable(id, map);
  }

  /** Every reusable content, sorted by title then id. */
  listReusableContents(): ReusableContentData[] {
    const out: ReusableContentData[] = [];
    reusableRoot(this.ydoc).forEach((v, id) => v instanceof Y.Map && out.push(readReusable(id, v)));
    return out.sort(byNameThenId);
  }
}

/** The string-valued entries of the variables map, keys sorted; other value types are ignored. */
export function readVariables(root: Y.Map<unknown>): Record<string, string> {
  const entries: [string, string][] = [];
  root.forEach((v, k) => typeof v === 'string' && entries.push([storableText(k), storableText(v)]));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}
