import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { OrgParams } from '../../http/schemas';
import {
  DownloadParams,
  DownloadQuery,
  UploadedSchema,
  UploadQuery,
  UploadRequestBody,
  UploadUrlSchema,
} from './schemas';
import { checkDownload, createUploadUrl, receiveUpload } from './service';
import { downloadPayload, MAX_UPLOAD_BYTES } from '../../store/file-storage';

const tags = ['Storage'];

/** Types a browser may render inline; anything else downloads as an attachment. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|avif|svg\+xml)|text\/plain|application\/pdf|video\/(mp4|webm)|audio\/(mpeg|ogg|wav))$/;

export const storageRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { storage } = ctx;
    app.post(
      '/orgs/:organizationId/storage/upload',
      {
        schema: {
          operationId: 'generateStorageUploadURL',
          tags,
          params: OrgParams,
          body: UploadRequestBody,
          response: { 201: UploadUrlSchema },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await createUploadUrl(ctx, storage, req.principal, req.params.organizationId, req.body)),
    );

    // Uploads carry raw bytes of any type, authorized by the URL's signature alone.
    await app.register(async (scope) => {
      const uploads = scope.withTypeProvider<TypeBoxTypeProvider>();
      uploads.removeAllContentTypeParsers();
      uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) =>
        done(null, body),
      );
      uploads.put(
        '/storage/uploads/:key',
        {
          config: { public: true },
          bodyLimit: MAX_UPLOAD_BYTES,
          schema: {
            operationId: 'uploadStorageFile',
            tags,
            summary: 'Upload the bytes of a file to a URL from generateStorageUploadURL',
            security: [],
            params: Type.Object({ key: Type.String({ pattern: '^[a-zA-Z0-9]{24}$' }) }),
            querystring: UploadQuery,
            response: { 200: UploadedSchema },
          },
        },
        async (req) => {
          const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          return receiveUpload(ctx, storage, req.params.key, req.query.expires, req.query.signature, body);
        },
      );
    });

    app.get(
      '/files/:sha256/:name',
      {
        config: { public: true },
        schema: {
          operationId: 'downloadFile',
          tags,
          summary: 'The bytes of a file (a signed downloadURL)',
          security: [],
          params: DownloadParams,
          querystring: DownloadQuery,
        },
      },
      async (req, reply) => {
        const { sha256, name } = req.params;
        const type = req.query.type;
        const size = await checkDownload(storage, sha256, req.query.signature, downloadPayload(sha256, type));
        const disposition = INLINE.test(type) ? 'inline' : 'attachment';
        return (
          reply
            .header('content-type', type)
            .header('content-length', size)
            .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(name)}`)
            // Content-addressed: the bytes behind this URL never change.
            .header('cache-control', 'private, max-age=31536000, immutable')
            .header('x-content-type-options', 'nosniff')
            // An uploaded SVG or HTML file must not run script in our origin.
            .header(
              'content-security-policy',
              "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
            )
            .send(storage.blobs.read(sha256))
        );
      },
    );
  };
