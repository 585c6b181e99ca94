import { Type } from 'typebox';
import { EntityId } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';

/**
 * The two content flags every content read takes: `metadata=false` omits
 * mutable Git metadata (Folio keeps none on revisions yet: accepted, no
 * effect) and `computed=false` returns computed pages as their source
 * (RevisionPageComputed) instead of the pages they generate.
 */
export const ContentFlags = {
  metadata: Type.Optional(Type.Boolean({ default: true })),
  computed: Type.Optional(Type.Boolean({ default: true })),
};

export const PageFormat = {
  format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')])),
  'format.markdown.refs': Type.Optional(Type.Union([Type.Literal('relative'), Type.Literal('stable')])),
  evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')])),
  dereferenced: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('reusable-contents')])),
};

export const SpaceContentParams = Type.Object({ spaceId: EntityId });
export const RevisionParams = Type.Object({ spaceId: EntityId, revisionId: EntityId });
export const PageParams = Type.Object({ spaceId: EntityId, pageId: EntityId });
export const RevisionPageParams = Type.Object({ spaceId: EntityId, revisionId: EntityId, pageId: EntityId });
export const FileParams = Type.Object({ spaceId: EntityId, fileId: EntityId });
export const RevisionFileParams = Type.Object({ spaceId: EntityId, revisionId: EntityId, fileId: EntityId });
export const PathParams = Type.Object({ spaceId: EntityId, '*': Type.String({ minLength: 1, maxLength: 2048 }) });

export const FlagsQuery = Type.Object(ContentFlags);
export const PageQuery = Type.Object({ ...ContentFlags, ...PageFormat });
export const FilesQuery = Type.Object({ ...PagingQuery, ...ContentFlags });

export const CrContentParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId });
export const CrPageParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId, pageId: EntityId });
export const CrFileParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId, fileId: EntityId });
export const CrPathParams = Type.Object({
  spaceId: EntityId,
  changeRequestId: EntityId,
  '*': Type.String({ minLength: 1, maxLength: 2048 }),
});

/**
 * The two places current content is read from: a space and a change request
 * (`changeRequestId` = id or number). Same operations, GitBook's operationIds
 * for each; content and link routes register one implementation per scope.
 */
export const CONTENT_SCOPES = [
  {
    kind: 'space' as const,
    prefix: '/spaces/:spaceId',
    tags: ['Space content'],
    params: { base: SpaceContentParams, page: PageParams, file: FileParams, path: PathParams },
    ops: {
      revision: 'getCurrentRevision',
      pages: 'listPages',
      page: 'getPageById',
      path: 'getPageByPath',
      files: 'listFiles',
      file: 'getFileById',
    },
    links: { pageLinks: 'listPageLinks', pageBacklinks: 'listPageBacklinks', fileBacklinks: 'listFileBacklinks' },
  },
  {
    kind: 'change-request' as const,
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
    tags: ['Change request content'],
    params: { base: CrContentParams, page: CrPageParams, file: CrFileParams, path: CrPathParams },
    ops: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      page: 'getPageInChangeRequestById',
      path: 'getPageInChangeRequestByPath',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
    },
    // GitBook publishes no operationIds for these three; named after the space ones.
    links: {
      pageLinks: 'listChangeRequestPageLinks',
      pageBacklinks: 'listChangeRequestPageBacklinks',
      fileBacklinks: 'listChangeRequestFileBacklinks',
    },
  },
];
