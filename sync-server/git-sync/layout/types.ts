/**
 * The shapes the repository layout codec reads and writes. The codec turns the files of a Git
 * tree in GitBook's layout into Folio's page tree and back; it does no I/O: the Git transport hands
 * it `Map<path, bytes>` and commits the changes it answers, the sync jobs apply the pages it reads.
 */

/** Page kinds a repository can hold (computed pages are Folio's own and are not synced). */
export type RepoPageKind = 'document' | 'group' | 'link';

export interface LayoutOptions {
  /** GitBook's repoProjectDirectory: the docs (and their .gitbook.yaml) live under it; nothing outside is read or written. */
  projectDirectory?: string;
}

/** The page fields a markdown file's front matter carries. */
export interface PageFields {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
}

/** A page as the repository describes it. `id` is the baseline's page for it (undefined: new). */
export interface RepoPage extends PageFields {
  id?: string;
  /**
   * What the returned baseline calls this page: its file's path for documents, a synthetic
   * `group:…` / `link:…` key otherwise. New pages get their ids bound through it (`bindIds`).
   */
  key: string;
  kind: RepoPageKind;
  title: string;
  slug: string;
  href?: string;
  /** The stored body: no front matter, no title heading. */
  markdown: string;
  /** The page's file in the repository (documents only). */
  path?: string;
  children: RepoPage[];
}

/** A file of `.gitbook/assets/`. `id` is the baseline's file at that path (undefined: new). */
export interface RepoFile {
  id?: string;
  name: string;
  /** Its path in the repository, also its key for `bindIds`. */
  path: string;
  bytes: Uint8Array;
  /** Known files (with an id) whose bytes changed in the repository since the last sync. */
  changed?: true;
  /** Known files: the sha256 the baseline had for them (what Folio held at the last sync). */
  baseSha256?: string;
}

/**
 * A redirect of `.gitbook.yaml` (redirects.ts): the old URL path (relative to the docs root) and
 * the page its file is — the page's key and, when the baseline knows it, its id. `page` is
 * undefined when the file is no page (the read warns).
 */
export interface RepoRedirect {
  from: string;
  to: string;
  page?: { key: string; id?: string };
  /** Whether the last sync's .gitbook.yaml already had this redirect (then the import applied it already). */
  known: boolean;
}

/** A page of the space as the writer needs it. */
export interface SpacePage extends PageFields {
  id: string;
  kind: RepoPageKind;
  title: string;
  slug: string;
  href?: string;
  markdown: string;
  children: readonly SpacePage[];
}

/** A file of the space: bytes are asked for only when they must be written. */
export interface SpaceFile {
  id: string;
  name: string;
  sha256: string;
  bytes(): Uint8Array;
}

/** The space's current tree, as `writeRepository` takes it. */
export interface SpaceContent {
  pages: readonly SpacePage[];
  files: readonly SpaceFile[];
}

/** What the codec remembers of one page at the last sync. */
export interface BaselinePage extends PageFields {
  /** Documents: the file's path; groups and links: `group:…` / `link:…`. Unique in a baseline. */
  key: string;
  /** Folio's page id; undefined until the caller binds a page it created (`bindIds`). */
  id?: string;
  /** Key of the parent page (undefined at the root). */
  parent?: string;
  kind: RepoPageKind;
  title: string;
  slug: string;
  href?: string;
  /** The body Folio stores (empty for groups and links). */
  markdown: string;
  /** Documents: the file's exact text at the last sync. */
  text?: string;
  /** Documents: the line of `text` where the body starts; body line i is text line bodyStart + i. */
  bodyStart?: number;
  /** The title SUMMARY.md gave it (a file without heading takes its title from there). */
  listedTitle?: string;
  /** Index of its entry among SUMMARY.md's entries (see summary-parse.ts), when listed. */
  entry?: number;
}

/** What the codec remembers of one asset at the last sync. */
export interface BaselineFile {
  path: string;
  id?: string;
  name: string;
  sha256: string;
}

/**
 * What the codec remembers of the last sync (plain JSON, stored per space by the caller). With it,
 * a page nobody edited is written back byte-identical, an edited one changes only the lines its
 * edit touched, and a read reports as changed only what changed in the repository.
 */
export interface Baseline {
  version: 1;
  /** The project directory ('' or `dir/`). */
  projectDirectory: string;
  /** Where the docs live: the project directory joined with .gitbook.yaml's `root` ('' or `dir/`). */
  root: string;
  /** Repository paths of the first page (`structure.readme`) and the table of contents (`structure.summary`). */
  readme: string;
  summary: string;
  /** SUMMARY.md's exact text at the last sync; undefined when there was none. */
  summaryText?: string;
  /** .gitbook.yaml's exact text; undefined when there was none. */
  configText?: string;
  /** Every page, in tree order (pre-order). */
  pages: BaselinePage[];
  files: BaselineFile[];
}
