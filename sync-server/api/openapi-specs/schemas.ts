import { Type } from 'typebox';
import { EntityId, Timestamp, Url } from '../../http/schemas';
import { MAX_SPEC_TEXT } from '../../openapi-specs/process';

/** GitBook's OpenAPISpecSlug. */
export const SPEC_SLUG_PATTERN = '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$';
export const SpecSlug = Type.String({ minLength: 1, maxLength: 100, pattern: SPEC_SLUG_PATTERN });

export const SpecParams = Type.Object({ organizationId: EntityId, specSlug: SpecSlug });
export const VersionParams = Type.Object({ organizationId: EntityId, specSlug: SpecSlug, versionId: EntityId });

/** GitBook's OpenAPISpecSource: a URL to fetch, or the text itself (JSON or YAML); never both. */
export const SpecSource = Type.Union([
  Type.Object(
    { url: Type.String({ format: 'uri', maxLength: 2048, description: 'http(s) URL of the specification' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      text: Type.String({
        minLength: 1,
        maxLength: MAX_SPEC_TEXT,
        description: 'The specification as JSON or YAML text',
      }),
    },
    { additionalProperties: false },
  ),
]);

export const CreateSpecBody = Type.Object({ slug: SpecSlug, source: SpecSource }, { additionalProperties: false });
export const PutSpecBody = Type.Object({ source: SpecSource }, { additionalProperties: false });

const Visibility = Type.Unsafe<'private' | 'public'>({ type: 'string', enum: ['private', 'public'] });
export const PatchSpecBody = Type.Object({ visibility: Visibility }, { additionalProperties: false });

export const ProcessingState = Type.Unsafe<'pending' | 'progress' | 'complete'>({
  type: 'string',
  enum: ['pending', 'progress', 'complete'],
});
export const ProcessErrorCode = Type.Unsafe<'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR'>({
  type: 'string',
  enum: ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'],
});

/** GitBook's OpenAPISpec. */
export const SpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: Type.String(),
  sourceURL: Type.Optional(Url),
  processingState: ProcessingState,
  visibility: Visibility,
  lastVersion: Type.Optional(Type.String()),
  lastProcessedAt: Type.Optional(Timestamp),
  lastProcessErrorCode: Type.Optional(ProcessErrorCode),
  lastProcessedErrors: Type.Optional(
    Type.Array(Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) })),
  ),
  lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Url, app: Url, published: Type.Optional(Url) }),
});

/** GitBook's OpenAPISpecVersion. */
export const VersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Timestamp,
  url: Url,
  urls: Type.Object({ location: Url }),
});

/** GitBook's OpenAPISpecContent (plus `url`, the field of its earlier versions). Sent pre-serialized. */
export const ContentSchema = Type.Object({
  filesystem: Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'Every file of the specification by name: {dir, isEntrypoint, references, filename, specification}',
    },
  ),
  url: Url,
  urls: Type.Object({ source: Url, public: Type.Union([Url, Type.Null()]) }),
});

/** GitBook's OpenAPISpecRawContent. */
export const RawContentSchema = Type.Object({
  text: Type.String(),
  format: Type.Unsafe<'json' | 'yaml'>({ type: 'string', enum: ['json', 'yaml'] }),
});
