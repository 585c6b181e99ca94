import { Type } from 'typebox';
import { IntegrationName } from '../integrations/schemas';

/** TypeBox schemas of block rendering, integration blocks and tasks (GitBook's names). */

const Plain = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const RenderBody = Type.Object(
  {
    componentId: Type.String({ minLength: 1, maxLength: 200, description: 'ID of the component to render' }),
    props: Plain('Current properties of the UI'),
    state: Type.Optional(Plain('Current local state of the UI')),
    context: Type.Object(
      {
        type: Type.String({ minLength: 1, maxLength: 64 }),
        spaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        editable: Type.Optional(Type.Boolean()),
        theme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark')])),
      },
      { additionalProperties: true, description: "GitBook's ContentKitContext" },
    ),
    action: Type.Optional(Plain('The action dispatched by the UI')),
  },
  { additionalProperties: false },
);

export const RenderQuery = Type.Object({
  // Required by GitBook; optional here so that an unknown integration is a 404 before the query is read.
  request: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64 * 1024, description: 'LZ-string compressed JSON request' }),
  ),
});

export const RenderOutput = Plain("GitBook's ContentKitRenderOutput");

export const IntegrationNameParams = Type.Object({ integrationName: IntegrationName });

export const SpaceIdParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 64 }) });

export const SpaceIntegrationBlocks = Type.Array(
  Type.Object({
    name: Type.String(),
    blocks: Type.Array(Type.Object({ id: Type.String(), title: Type.String() }, { additionalProperties: true })),
  }),
);

export const TaskBody = Type.Object(
  {
    task: Plain('Payload for the integration task'),
    schedule: Type.Optional(
      Type.Number({ minimum: 0, maximum: 86400, description: 'Seconds to wait before running the task' }),
    ),
  },
  { additionalProperties: false },
);
