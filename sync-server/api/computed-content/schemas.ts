import { Type } from 'typebox';

/**
 * Bodies of GitBook's getComputedRevision and getComputedDocument. The source is checked by the
 * service (one message per mistake) rather than by a union schema, whose failures name no field
 * a caller would recognise.
 */
const Source = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 200 }),
    dependencies: Type.Optional(Type.Object({}, { additionalProperties: true })),
    props: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export const ComputeBody = Type.Object({
  source: Source,
  seed: Type.String({ minLength: 1, maxLength: 200, description: 'Seed to use for the generation of IDs.' }),
});

export const DocumentQuery = Type.Object({
  schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')])),
});
