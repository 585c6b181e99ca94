/**
 * The repository layout codec of Git sync: the files of a Git tree in GitBook's layout
 * (.gitbook.yaml, README.md, SUMMARY.md, one markdown file per page, .gitbook/assets/) <-> Folio's
 * page tree, pure and synchronous, with a round trip that changes nothing nobody edited.
 *
 * - `readRepository(tree, baseline)` reads a branch into pages and files, plus the baseline that
 *   tree is; new pages have no id: create them, then `bindIds` the baseline before storing it.
 * - `writeRepository(space, baseline, tree)` answers the paths to commit and the next baseline.
 */

export { bindIds } from './baseline';
export { readRepository, type ReadResult } from './reader';
export { writeRepository, type WriteResult } from './writer';
export { addRedirects, readRedirects, type Redirect } from './redirects';
export type {
  Baseline,
  BaselineFile,
  BaselinePage,
  LayoutOptions,
  PageFields,
  RepoFile,
  RepoPage,
  RepoPageKind,
  RepoRedirect,
  SpaceContent,
  SpaceFile,
  SpacePage,
} from './types';
