import { Type, type Static } from 'typebox';
import { EntityId, OrgParams, Timestamp, Url } from '../../http/schemas';
import { ListOf, PagingQuery } from '../../http/paging';

/** GitBook's ContentImportSource: a website by URL, or uploaded files by their storage keys. */
const WebsiteSource = Type.Object(
  { type: Type.Literal('website'), url: Type.String({ minLength: 1, maxLength: 2048 }) },
  { additionalProperties: false },
);
const FileSource = Type.Object(
  {
    type: Type.Literal('file'),
    files: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9]+$' }), {
      minItems: 1,
      maxItems: 50,
      description: 'Keys of files uploaded with generateStorageUploadURL',
    }),
  },
  { additionalProperties: false },
);
export const ImportSource = Type.Union([WebsiteSource, FileSource]);
export type ImportSource = Static<typeof ImportSource>;

/** GitBook's older content/import took `source: {url}`; it still does, as a website or a file at that URL. */
const UrlSource = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false });

export const ImportTarget = Type.Object(
  { space: EntityId, changeRequest: Type.Optional(EntityId), page: Type.Optional(EntityId) },
  { additionalProperties: false },
);
export type ImportTarget = Static<typeof ImportTarget>;

export const StartImportRunBody = Type.Object({
  source: ImportSource,
  target: ImportTarget,
  site: Type.Optional(EntityId),
  enhance: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; Folio does not rewrite content' })),
});

export const ImportContentBody = Type.Object({
  source: Type.Union([WebsiteSource, FileSource, UrlSource]),
  enhance: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; Folio does not rewrite content' })),
});

export const ImportContentResult = Type.Object({
  revision: Type.String({ description: 'ID of the revision the imported pages were written in' }),
  importedResources: Type.Number({ description: 'Pages and files imported' }),
  totalResources: Type.Number({ description: 'Pages and files found, the skipped ones included' }),
});

const count = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

/**
 * A run's counts, absent until it has read something. `totalPages` and `importedPages` are
 * GitBook's (its checkContentImport reports them for a run); the others are Folio extensions.
 */
const RunCounts = {
  totalPages: count('Pages found so far that the run reads (up to its page limit); final once completed'),
  importedPages: count('Pages read and kept so far (written together, as one revision, at the end)'),
  skippedPages: count('Folio extension: pages read and left out (see `skipped`)'),
  totalFiles: count('Folio extension: files (images, assets) found so far that the run reads'),
  importedFiles: count('Folio extension: files read and kept so far'),
  skippedFiles: count('Folio extension: files left out (too large, not an image, unreachable)'),
};

export const ImportRunSchema = Type.Object({
  object: Type.Literal('import-run'),
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: Type.Optional(Timestamp),
  completedAt: Type.Optional(Timestamp),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('in-progress'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  reason: Type.Optional(Type.String()),
  source: ImportSource,
  target: ImportTarget,
  site: Type.Optional(Type.String()),
  createdBy: Type.Optional(Type.String()),
  urls: Type.Object({ location: Url }),
  ...RunCounts,
  skipped: Type.Optional(
    Type.Array(
      Type.Object({
        source: Type.String({ description: 'URL, or path inside an uploaded archive, of what was left out' }),
        code: Type.String({ description: 'Why: FILE_TOO_LARGE, FETCH_ERROR, NOT_A_PAGE, PAGE_LIMIT…' }),
        message: Type.String(),
      }),
      {
        description:
          'Folio extension: what a completed run left out and why (the first 50; skippedPages and skippedFiles count all)',
      },
    ),
  ),
  pages: Type.Array(
    Type.Object({
      id: Type.String(),
      sourceURL: Type.Optional(Type.String()),
      type: Type.Union([Type.Literal('page'), Type.Literal('folder')]),
      status: Type.Union([Type.Literal('complete'), Type.Literal('pending')]),
    }),
  ),
});

export const ImportRunList = ListOf(ImportRunSchema);

export const ImportRunParams = Type.Object({ ...OrgParams.properties, importRunId: EntityId });

export const ListImportRunsQuery = Type.Object({
  space: Type.Optional(EntityId),
  changeRequest: Type.Optional(EntityId),
  site: Type.Optional(EntityId),
  status: Type.Optional(
    Type.Union([
      Type.Literal('active'),
      Type.Literal('pending'),
      Type.Literal('in-progress'),
      Type.Literal('completed'),
      Type.Literal('failed'),
      Type.Literal('cancelled'),
    ]),
  ),
  ...PagingQuery,
});
