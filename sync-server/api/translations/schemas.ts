import { Type } from 'typebox';
import { LANGUAGES } from '../../../shared/languages';
import { EntityId, Timestamp, Url } from '../../http/schemas';

/** GitBook's TranslationLanguage. */
export const Language = Type.Unsafe<(typeof LANGUAGES)[number]>({ type: 'string', enum: [...LANGUAGES] });

/** GitBook's JSONDocument (instructions): blocks are kept as given. */
export const JsonDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Object({ schemaVersion: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
    nodes: Type.Array(Type.Unsafe<unknown>({})),
    meta: Type.Optional(Type.Object({ token: Type.Optional(Type.String()) })),
  },
  { additionalProperties: false },
);

export const TranslationSource = Type.Object({ space: EntityId, language: Language }, { additionalProperties: false });

export const CreateTranslationBody = Type.Object(
  { language: Language, source: TranslationSource, instructions: Type.Optional(JsonDocument) },
  { additionalProperties: false },
);
export const UpdateTranslationBody = Type.Object({ instructions: JsonDocument }, { additionalProperties: false });

export const TranslationParams = Type.Object({ organizationId: EntityId, translationId: EntityId });
export const GlossaryEntryParams = Type.Object({ organizationId: EntityId, glossaryEntryId: EntityId });

const Count = Type.Integer({ minimum: 0 });

const RunState = Type.Unsafe<'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'>({
  type: 'string',
  enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'],
});

const EngineSchema = Type.Union(
  [
    Type.Object({
      kind: Type.String({ description: 'libretranslate or openai' }),
      instructions: Type.Boolean({ description: 'Whether the engine follows `instructions`' }),
    }),
    Type.Null(),
  ],
  { description: 'Folio: the engine runs use (null: none configured on this server, runs fail)' },
);

/** GitBook's Translation, with Folio's `engine` and `run`. */
export const TranslationSchema = Type.Object({
  object: Type.Literal('translation'),
  id: Type.String(),
  status: Type.Unsafe<'pending' | 'running' | 'completed'>({
    type: 'string',
    enum: ['pending', 'running', 'completed'],
  }),
  source: Type.Object({ space: Type.String(), language: Type.String() }),
  language: Type.String(),
  instructions: JsonDocument,
  result: Type.Optional(Type.Object({ space: Type.String(), revision: Type.String(), language: Type.String() })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  stats: Type.Object({
    runs: Count,
    totalWords: Count,
    totalPages: Count,
    totalDuration: Count,
    latestRunDuration: Count,
    latestPages: Count,
    latestWords: Count,
  }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Url }),
  engine: EngineSchema,
  run: Type.Optional(
    Type.Object(
      {
        id: Type.String(),
        state: RunState,
        createdAt: Timestamp,
        startedAt: Type.Optional(Timestamp),
        endedAt: Type.Optional(Timestamp),
        progress: Type.Optional(Type.Object({ pages: Count, totalPages: Count })),
        error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
        pages: Type.Optional(Count),
        words: Type.Optional(Count),
        warnings: Type.Optional(Type.Array(Type.String(), { description: 'What the run kept as it was, and why' })),
        review: Type.Optional(
          Type.Object({
            changeRequest: Type.String(),
            pages: Type.Array(Type.String()),
          }),
        ),
      },
      { description: 'Folio: the newest run' },
    ),
  ),
});

/** GitBook's GlossaryTranslations: language code to term (one line, 1..255 characters). */
export const GlossaryTranslations = Type.Record(
  Type.String(),
  Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*$' }),
);

export const GlossaryEntrySchema = Type.Object({
  object: Type.Literal('glossary-entry'),
  id: Type.String(),
  translations: GlossaryTranslations,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Url }),
});

export const GlossaryOperation = Type.Union([
  Type.Object({ type: Type.Literal('insert'), translations: GlossaryTranslations }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('update'), id: EntityId, translations: GlossaryTranslations },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('delete'), id: EntityId }, { additionalProperties: false }),
]);

export const UpdateGlossaryBody = Type.Object(
  { operations: Type.Array(GlossaryOperation, { maxItems: 1000 }) },
  { additionalProperties: false },
);

export const GlossaryListQuery = { orderBy: Type.Optional(Language) };

/** The list of translations, with the server's engine (Folio): an organization without translations yet learns it too. */
export const TranslationListSchema = Type.Object({
  items: Type.Array(TranslationSchema),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
  engine: EngineSchema,
});
