import fs from 'node:fs';
import { readTree, writeBlob, writeTree, type TreeEntry } from 'isomorphic-git';
import { GitTransportError } from './errors';

/**
 * A new tree: the base tree with the changed files written and the deleted ones removed, and
 * nothing else touched. Only the folders on a changed path are read and written again; every
 * other entry (files Folio does not know, symbolic links, submodules, executable bits) keeps its
 * object id and mode. Folders left empty disappear, as Git cannot hold an empty folder.
 */

interface Folder {
  /** name → entry as stored; an opened sub-folder is also in `open`. */
  entries: Map<string, TreeEntry>;
  /** Sub-folders read to change something inside them. */
  open: Map<string, Folder>;
  /** The stored tree's id; null for a new folder. */
  oid: string | null;
  changed: boolean;
}

const FILE = '100644';
const EXECUTABLE = '100755';

interface Context {
  gitdir: string;
  cache: object;
}

async function load(ctx: Context, oid: string | null): Promise<Folder> {
  const entries = new Map<string, TreeEntry>();
  if (oid)
    for (const entry of (await readTree({ fs, gitdir: ctx.gitdir, oid, cache: ctx.cache })).tree)
      entries.set(entry.path, entry);
  return { entries, open: new Map(), oid, changed: false };
}

/** Whether a folder holds no file any more (only opened folders that are empty themselves). */
function isEmpty(folder: Folder): boolean {
  for (const [name, entry] of folder.entries) {
    const sub = folder.open.get(name);
    if (entry.type !== 'tree' || !sub || !isEmpty(sub)) return false;
  }
  return true;
}

const conflict = (path: string, what: string) =>
  new GitTransportError('invalid-path', `"${path}" cannot be written to the repository: ${what}`);

/** The folders along `segments` (all but the last); undefined when one is missing and `create` is false. */
async function folderOf(
  ctx: Context,
  root: Folder,
  segments: string[],
  create: boolean,
): Promise<Folder[] | undefined> {
  const chain = [root];
  for (let i = 0; i < segments.length - 1; i++) {
    const folder = chain[chain.length - 1]!;
    const name = segments[i]!;
    let sub = folder.open.get(name);
    if (!sub) {
      const entry = folder.entries.get(name);
      if (entry && entry.type !== 'tree') {
        if (!create) return undefined;
        throw conflict(segments.join('/'), `"${segments.slice(0, i + 1).join('/')}" is a file`);
      }
      if (!entry && !create) return undefined;
      sub = await load(ctx, entry ? entry.oid : null);
      folder.open.set(name, sub);
      if (!entry) folder.entries.set(name, { mode: '040000', path: name, oid: '', type: 'tree' });
    }
    chain.push(sub);
  }
  return chain;
}

async function remove(ctx: Context, root: Folder, path: string): Promise<void> {
  const segments = path.split('/');
  const chain = await folderOf(ctx, root, segments, false);
  const folder = chain?.[chain.length - 1];
  const name = segments[segments.length - 1]!;
  const entry = folder?.entries.get(name);
  // Deleting a path that holds no file is done already (a folder is not deleted through its name).
  if (!chain || !folder || !entry || entry.type === 'tree') return;
  folder.entries.delete(name);
  for (const f of chain) f.changed = true;
}

async function put(ctx: Context, root: Folder, path: string, bytes: Uint8Array): Promise<void> {
  const segments = path.split('/');
  const chain = (await folderOf(ctx, root, segments, true))!;
  const folder = chain[chain.length - 1]!;
  const name = segments[segments.length - 1]!;
  const existing = folder.entries.get(name);
  if (existing?.type === 'tree') {
    const sub = folder.open.get(name);
    if (!sub || !isEmpty(sub)) throw conflict(path, 'a folder of that name holds files');
    folder.open.delete(name);
  }
  const oid = await writeBlob({ fs, gitdir: ctx.gitdir, blob: bytes });
  // A changed file keeps its executable bit; anything else there (a link, a submodule) becomes a file.
  const mode = existing?.mode === EXECUTABLE ? EXECUTABLE : FILE;
  folder.entries.set(name, { mode, path: name, oid, type: 'blob' });
  for (const f of chain) f.changed = true;
}

/** Writes the changed folders bottom-up; the folder's tree id, or null when it holds nothing. */
async function save(ctx: Context, folder: Folder): Promise<string | null> {
  for (const [name, sub] of folder.open) {
    const oid = await save(ctx, sub);
    if (oid) folder.entries.set(name, { mode: '040000', path: name, oid, type: 'tree' });
    else folder.entries.delete(name);
  }
  if (!folder.changed) return folder.oid;
  if (folder.entries.size === 0) return null;
  return writeTree({ fs, gitdir: ctx.gitdir, tree: [...folder.entries.values()] });
}

/**
 * The tree of `base` (a tree id, or null for none) with `changes` applied (paths already checked
 * by paths.ts); null when the result holds no file at all. Deletions apply first, so one change
 * set can replace file "a" by a folder "a/" or the other way round.
 */
export async function writeChangedTree(options: {
  gitdir: string;
  cache: object;
  base: string | null;
  changes: Map<string, Uint8Array | null>;
}): Promise<string | null> {
  const ctx = { gitdir: options.gitdir, cache: options.cache };
  const root = await load(ctx, options.base);
  for (const [path, bytes] of options.changes) if (bytes === null) await remove(ctx, root, path);
  for (const [path, bytes] of options.changes) if (bytes !== null) await put(ctx, root, path, bytes);
  return save(ctx, root);
}
