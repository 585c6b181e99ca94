import { ConditionError, parseCondition } from '../../sites/conditions';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { readComputedSource } from '../../../shared/doc/computed';
import { BatchError } from './apply-error';
import { checkContentType, fileNameProblem, MAX_FILE_NAME } from '../../store/file-fields';

/**
 * GitBook's ChangeRequestContentChange, one TypeBox schema per operation.
 * The route's own body schema only checks the envelope (`changes`, 1..50,
 * each with a known `operation`); each change is then checked here against
 * its operation's schema, so an error names the change and the field
 * (`body.changes[3].title: must not have fewer than 1 characters`) instead
 * of Ajv's "must match a schema in anyOf".
 */

const MarkdownDocument = Type.Object({ markdown: Type.String({ maxLength: 1_000_000 }) });
const JsonDocument = Type.Object(
  { object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true },
);
const PageDocumentSchema = Type.Union([MarkdownDocument, JsonDocument]);
export type PageDocument = Static<typeof PageDocumentSchema>;

/** RevisionPageUpdate: metadata an insert or update may set. */
const pageFields = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  // "" removes the page's condition. Its grammar is checked below (the same one site sections use).
  condition: Type.Optional(Type.String({ maxLength: 2048 })),
};

export type PageFields = {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  condition?: string;
};

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' });
const Ref = Type.String({ minLength: 1, maxLength: 256 });

const InsertPage = Type.Object({
  operation: Type.Literal('insert_page'),
  ...pageFields,
  into: Type.Optional(Id),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Ref),
  // Required unless `computed` is given (checked below, with a message naming both).
  document: Type.Optional(PageDocumentSchema),
  // Folio extension: a computed page (GitBook's InputPageComputed `computed`), e.g. API reference pages generated
  // from an OpenAPI spec. Its pages are generated when content is read; it has no document of its own.
  computed: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
const UpdatePage = Type.Object({
  operation: Type.Literal('update_page'),
  ...pageFields,
  page: Id,
  document: Type.Optional(PageDocumentSchema),
  // Folio extension: a computed page's new source (the page must be computed).
  computed: Type.Optional(Type.Object({}, { additionalProperties: true })),
  into: Type.Optional(Type.Union([Id, Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
});
const DeletePage = Type.Object({ operation: Type.Literal('delete_page'), page: Id });
const RevertPage = Type.Object({
  operation: Type.Literal('revert_page'),
  page: Id,
  revision: Type.Optional(Id),
  block: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 })),
});
const InsertFile = Type.Object({
  ref: Type.Optional(Ref),
  // Name and type are also checked by checkFile (a download link must work for every accepted value).
  name: Type.String({ minLength: 1, maxLength: MAX_FILE_NAME }),
  contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  // 1 MB of bytes is 1,398,104 base64 characters (padding included).
  // No whitespace: a pattern with two overlapping whitespace runs backtracks quadratically on 1.4 MB.
  base64: Type.Optional(Type.String({ maxLength: 1_398_104, pattern: '^[A-Za-z0-9+/]*={0,2}$' })),
});
const InsertFiles = Type.Object({
  operation: Type.Literal('insert_files'),
  files: Type.Array(InsertFile, { minItems: 1, maxItems: 20 }),
});

export type ContentChange =
  | Static<typeof InsertPage>
  | Static<typeof UpdatePage>
  | Static<typeof DeletePage>
  | Static<typeof RevertPage>
  | Static<typeof InsertFiles>;

const BY_OPERATION: Record<string, TSchema> = {
  insert_page: InsertPage,
  update_page: UpdatePage,
  delete_page: DeletePage,
  revert_page: RevertPage,
  insert_files: InsertFiles,
};
export const OPERATIONS = Object.keys(BY_OPERATION);

/** The route's body schema (envelope only; see the file comment). */
export const UpdateContentBody = Type.Object({
  changes: Type.Array(
    Type.Object(
      { operation: Type.Union(OPERATIONS.map((o) => Type.Literal(o))) },
      { additionalProperties: true, description: "GitBook's ChangeRequestContentChange" },
    ),
    { minItems: 1, maxItems: 50 },
  ),
});

export const UpdateContentQuery = Type.Object({ compat: Type.Optional(Type.Boolean({ default: true })) });

function path(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join('');
}

const SOURCE_SHAPE =
  'must be {"type": "builtin:openapi", "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "<spec slug>"}}}, "props": {"models": <boolean>}}';

/** Checks every change against its operation's schema (all before any is applied); returns them typed. */
export function validateChanges(changes: readonly { operation: string }[]): ContentChange[] {
  changes.forEach((change, i) => {
    const schema = BY_OPERATION[change.operation]!;
    const first = Value.Errors(schema, change).find((e) => e.keyword !== 'boolean' && e.keyword !== 'anyOf');
    const any = first ?? Value.Errors(schema, change)[0];
    if (any) {
      const at = `body.changes[${i}]${path(any.instancePath)}`;
      const missing = (any.params as { requiredProperties?: string[] }).requiredProperties?.[0];
      throw new BatchError(
        400,
        any.keyword === 'required' && missing ? `${at}.${missing}: is required` : `${at}: ${any.message}`,
      );
    }
    const condition = (change as { condition?: unknown }).condition;
    if (typeof condition === 'string' && condition !== '') {
      try {
        parseCondition(condition);
      } catch (err) {
        if (!(err instanceof ConditionError)) throw err;
        throw new BatchError(400, `body.changes[${i}].condition: ${err.message}`);
      }
    }
    const computed = (change as { computed?: unknown }).computed;
    if (change.operation === 'update_page' && computed !== undefined && !readComputedSource(computed))
      throw new BatchError(400, `body.changes[${i}].computed: ${SOURCE_SHAPE}`);
    if (change.operation === 'insert_page') {
      const insert = change as Static<typeof InsertPage>;
      if (insert.computed === undefined && insert.document === undefined)
        throw new BatchError(400, `body.changes[${i}].document: is required (or \`computed\` for a computed page)`);
      if (insert.computed !== undefined && insert.document !== undefined)
        throw new BatchError(
          400,
          `body.changes[${i}]: a computed page has no document: give \`computed\` or \`document\``,
        );
      if (insert.computed !== undefined && !readComputedSource(insert.computed))
        throw new BatchError(400, `body.changes[${i}].computed: ${SOURCE_SHAPE}`);
    }
    if (change.operation === 'insert_files')
      (change as Static<typeof InsertFiles>).files.forEach((f, j) => {
        const where = `body.changes[${i}].files[${j}]`;
        if ((f.url === undefined) === (f.base64 === undefined))
          throw new BatchError(400, `${where}: set exactly one of url and base64`);
        if (f.base64 !== undefined && !f.contentType)
          throw new BatchError(400, `${where}.contentType: required with base64`);
        checkFile(f, where);
      });
  });
  return changes as ContentChange[];
}

/**
 * A file's name and content type, so its download link works and stays put:
 * no control characters (a CR/LF type was stored, then every download was a
 * 400), a real media type (anchored; parameters are accepted and dropped,
 * see checkContentType), a name that is one URL path segment clients keep
 * (not "." or "..", no slash). Normalizes `contentType` in place.
 */
function checkFile(f: Static<typeof InsertFile>, where: string): void {
  const nameProblem = fileNameProblem(f.name);
  if (nameProblem) throw new BatchError(400, `${where}.name: ${nameProblem}`);
  if (f.contentType === undefined) return;
  const checked = checkContentType(f.contentType);
  if ('problem' in checked) throw new BatchError(400, `${where}.contentType: ${checked.problem}`);
  f.contentType = checked.essence;
}
