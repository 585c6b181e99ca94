/**
 * An OpenAPI 3.1 spec with what an API reference page must draw: servers, parameters in every
 * place, security, a request body with nested objects, arrays, enums, formats, allOf / oneOf, a
 * recursive schema ($ref cycle), an HTML description (with a script that must not survive), and
 * responses with and without examples. For the published site's API reference tests.
 */
export const referenceSpec = (title = 'Pet Store') => ({
  openapi: '3.1.0',
  info: { title, version: '1.0.0' },
  servers: [{ url: 'https://api.example.com/v1', description: 'Production' }],
  security: [{ bearer: [] }],
  paths: {
    '/pets/{petId}': {
      parameters: [
        {
          name: 'petId',
          in: 'path',
          required: true,
          description: 'The pet’s id.',
          schema: { type: 'string', format: 'uuid' },
        },
      ],
      put: {
        operationId: 'updatePet',
        summary: 'Update a pet',
        description:
          'Replaces a pet. **Markdown** works, <b class="x">HTML too</b><script>alert(1)</script> <img src="x" onerror="alert(2)">',
        parameters: [
          {
            name: 'dryRun',
            in: 'query',
            required: true,
            description: 'Only check the request.',
            schema: { type: 'boolean', default: false },
          },
          { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
        },
        responses: {
          '200': {
            description: 'The pet as saved',
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Pet' },
                example: { id: 'p-1', name: 'Rex', kind: 'dog' },
              },
            },
          },
          '404': {
            description: 'No such pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    '/pets': {
      get: {
        summary: 'List pets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: {
          '200': {
            description: 'Pets',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Pet: {
        allOf: [
          { $ref: '#/components/schemas/Named' },
          {
            type: 'object',
            required: ['kind'],
            properties: {
              id: { type: 'string', readOnly: true },
              kind: { type: 'string', enum: ['dog', 'cat', 'bird'], description: 'What the pet is.' },
              born: { type: 'string', format: 'date' },
              tags: { type: 'array', items: { type: 'string' } },
              owner: {
                type: 'object',
                properties: { email: { type: 'string', format: 'email' }, phone: { type: ['string', 'null'] } },
              },
              toy: {
                oneOf: [
                  { title: 'Ball', type: 'object', properties: { color: { type: 'string' } } },
                  { title: 'Bone', type: 'object', properties: { size: { type: 'integer' } } },
                ],
              },
              parent: { $ref: '#/components/schemas/Pet' },
            },
          },
        ],
      },
      Named: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', description: 'The *name*.' } },
      },
      Error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    },
  },
});
