import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
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
import { MAX_UPLOAD_BYTES } from '../../store/file-storage';
import { downloadHeaders } from './download-headers';

const tags = ['Storage'];

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

    // Uploads carry raw bytes of any type, authorized by the URL's signature alone. The body is not
    // parsed: it stays a stream that receiveUpload writes to disk, so a 100 MB upload never sits in memory.
    await app.register(async (scope) => {
      const uploads = scope.withTypeProvider<TypeBoxTypeProvider>();
      uploads.removeAllContentTypeParsers();
      // Fastify's bodyLimit applies only to bodies it reads itself: the limit is checked here and while streaming.
      uploads.addContentTypeParser('*', (req, payload, done) => {
        const length = Number(req.headers['content-length']);
        if (length > MAX_UPLOAD_BYTES) done(new ApiError(413, `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes`));
        else done(null, payload);
      });
      uploads.put(
        '/storage/uploads/:key',
        {
          config: { public: true },
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
          const length = req.headers['content-length'];
          // No Content-Type and no body: Fastify ran no parser; the request itself is the (empty) stream.
          const body = (req.body as Readable | undefined) ?? req.raw;
          return receiveUpload(
            ctx,
            storage,
            { key: req.params.key, expires: req.query.expires, signature: req.query.signature },
            body,
            length === undefined ? undefined : Number(length),
          );
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
        const { space, type, expires, signature } = req.query;
        const size = await checkDownload(ctx, storage, {
          sha256,
          spaceId: space,
          contentType: type,
          expires,
          signature,
        });
        const remaining = Math.max(0, expires - Math.floor(ctx.clock.now().getTime() / 1000));
        // Opened before any header is sent: a store that fails now still gets its 503.
        const bytes = await storage.blobs.read(sha256);
        return (
          reply
            .headers(downloadHeaders(type, name))
            .header('content-length', size)
            // Content-addressed: the bytes behind this URL never change (until the link expires).
            .header('cache-control', `private, max-age=${remaining}, immutable`)
            .send(bytes)
        );
      },
    );
  };
