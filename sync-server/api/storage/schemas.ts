import { Type } from 'typebox';
import { MAX_UPLOAD_BYTES } from '../../store/file-storage';

/** A MIME type such as image/png or application/vnd.foo+json; parameters are not allowed. */
export const MimeType = Type.String({
  pattern: '^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}$',
  maxLength: 255,
});

export const UploadRequestBody = Type.Object(
  {
    file: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000]+$' }),
        type: MimeType,
        size: Type.Integer({ minimum: 1, maximum: MAX_UPLOAD_BYTES }),
      },
      { additionalProperties: false },
    ),
    kind: Type.Union([
      Type.Literal('customization_font'),
      Type.Literal('import_file'),
      Type.Literal('organization_file'),
    ]),
  },
  { additionalProperties: false },
);

export const UploadUrlSchema = Type.Object({
  object: Type.Literal('storage-signed-url'),
  url: Type.String({ format: 'uri' }),
  key: Type.String(),
});

export const UploadedSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Number(),
  sha256: Type.String(),
});

const Signature = Type.String({ minLength: 10, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
export const UploadQuery = Type.Object({ expires: Type.Integer({ minimum: 0 }), signature: Signature });
export const DownloadParams = Type.Object({
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
});
export const DownloadQuery = Type.Object({
  space: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,100}$' }),
  type: MimeType,
  expires: Type.Integer({ minimum: 0 }),
  signature: Signature,
});
