/**
 * The content document model: typed access to a space's content Y.Doc
 * (ContentDoc) and its incremental materialization into GitBook API objects
 * (Materializer). Yjs key names stay private to keys.ts.
 */
export {
  ContentDoc,
  ContentDocError,
  type ContentDocOptions,
  type CreatePageInput,
  type MoveTarget,
  type PagePatch,
} from './content-doc';
export { Materializer, MaterializedContent, type FileInfo, type PageInfo, type ResolvedPageLink } from './materialize';
export { observeContent, type ContentChange } from './observe';
export { resolveTree, type ResolvedTree, type TreeNode } from './tree';
export { setTextMinimal, diffSpan } from './text-diff';
export { newEntityId, isValidEntityId } from './ids';
export { DEFAULT_LAYOUT } from './present';
export {
  openApiSource,
  readComputedSource,
  sourceSpecSlug,
  type ComputedOpenApiSource,
  type ComputedSource,
  type OpenApiGrouping,
} from './computed';
export type * from './types';
