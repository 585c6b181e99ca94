import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { MAX_SPEC_TEXT } from '../../openapi-specs/process';
import {
  ContentSchema,
  CreateSpecBody,
  PatchSpecBody,
  PutSpecBody,
  RawContentSchema,
  SpecParams,
  SpecSchema,
  VersionParams,
  VersionSchema,
} from './schemas';
import * as specs from './service';

const tags = ['OpenAPI'];

/** Room for a source.text of MAX_SPEC_TEXT characters, JSON-escaped (Fastify's default is 1 MiB). */
const SOURCE_BODY_LIMIT = Math.ceil(MAX_SPEC_TEXT * 1.5) + 64 * 1024;

const json = 'application/json; charset=utf-8';

/**
 * A body already serialized as JSON: Fastify sends a string as it is, so the stored filesystem
 * (megabytes, kept as text) is never parsed and serialized again on the way out.
 */
const preSerialized = (text: string) => text as unknown as Static<typeof ContentSchema>;

/**
 * GitBook's "OpenAPI specs" group, under /v1/orgs/{organizationId}/openapi, and the Folio route
 * that serves a public spec's document without a token.
 */
export const openApiSpecRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/openapi',
      {
        schema: {
          operationId: 'listOpenAPISpecs',
          tags,
          summary: 'List the OpenAPI specifications of an organization',
          params: OrgParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(SpecSchema) },
        },
      },
      async (req) => specs.listSpecs(ctx, req.principal, req.params.organizationId, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/openapi',
      {
        bodyLimit: SOURCE_BODY_LIMIT,
        schema: {
          operationId: 'createOpenAPISpec',
          tags,
          summary: 'Create an OpenAPI specification from a URL or a text; it is processed in the background',
          params: OrgParams,
          body: CreateSpecBody,
          response: { 201: SpecSchema },
        },
      },
      async (req, reply) => {
        const spec = await specs.createSpec(
          ctx,
          req.principal,
          req.params.organizationId,
          req.body.slug,
          req.body.source,
        );
        return reply.status(201).header('location', spec.urls.location).send(spec);
      },
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug',
      {
        schema: {
          operationId: 'getOpenAPISpecBySlug',
          tags,
          summary: 'An OpenAPI specification',
          params: SpecParams,
          response: { 200: SpecSchema },
        },
      },
      async (req) => specs.getSpec(ctx, req.principal, req.params.organizationId, req.params.specSlug),
    );

    app.put(
      '/orgs/:organizationId/openapi/:specSlug',
      {
        bodyLimit: SOURCE_BODY_LIMIT,
        schema: {
          operationId: 'createOrUpdateOpenAPISpecBySlug',
          tags,
          summary: 'Create an OpenAPI specification (201), or give it a new source to process (200)',
          params: SpecParams,
          body: PutSpecBody,
          response: { 200: SpecSchema, 201: SpecSchema },
        },
      },
      async (req, reply) => {
        const { created, spec } = await specs.createOrUpdateSpec(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.specSlug,
          req.body.source,
        );
        return reply.status(created ? 201 : 200).send(spec);
      },
    );

    app.patch(
      '/orgs/:organizationId/openapi/:specSlug',
      {
        schema: {
          operationId: 'updateOpenAPISpecBySlug',
          tags,
          summary: 'Change the visibility of an OpenAPI specification (public: served at urls.published)',
          params: SpecParams,
          body: PatchSpecBody,
          response: { 200: SpecSchema },
        },
      },
      async (req) =>
        specs.updateVisibility(ctx, req.principal, req.params.organizationId, req.params.specSlug, req.body.visibility),
    );

    app.delete(
      '/orgs/:organizationId/openapi/:specSlug',
      {
        schema: {
          operationId: 'deleteOpenAPISpecBySlug',
          tags,
          summary: 'Delete an OpenAPI specification and its versions (205; 204 when it did not exist)',
          params: SpecParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await specs.deleteSpec(ctx, req.principal, req.params.organizationId, req.params.specSlug);
        return reply.status(outcome === 'deleted' ? 205 : 204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions',
      {
        schema: {
          operationId: 'listOpenAPISpecVersions',
          tags,
          summary: 'The versions of an OpenAPI specification, newest first',
          params: SpecParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(VersionSchema) },
        },
      },
      async (req) =>
        specs.listVersions(ctx, req.principal, req.params.organizationId, req.params.specSlug, pageRequest(req.query)),
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions/latest',
      {
        schema: {
          operationId: 'getLatestOpenAPISpecVersion',
          tags,
          summary: 'The newest version of an OpenAPI specification',
          params: SpecParams,
          response: { 200: VersionSchema },
        },
      },
      async (req) => specs.getVersion(ctx, req.principal, req.params.organizationId, req.params.specSlug, 'latest'),
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
      {
        schema: {
          operationId: 'getLatestOpenAPISpecVersionContent',
          tags,
          summary: 'The content of the newest version: its filesystem (every file of the specification)',
          params: SpecParams,
          response: { 200: ContentSchema },
        },
      },
      async (req, reply) =>
        reply
          .type(json)
          .send(
            preSerialized(
              await specs.getVersionContent(
                ctx,
                req.principal,
                req.params.organizationId,
                req.params.specSlug,
                'latest',
              ),
            ),
          ),
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw',
      {
        schema: {
          operationId: 'getLatestOpenAPISpecVersionContentRaw',
          tags,
          summary: "The newest version's entry document exactly as it was fetched or given",
          params: SpecParams,
          response: { 200: RawContentSchema },
        },
      },
      async (req) => specs.getLatestRawContent(ctx, req.principal, req.params.organizationId, req.params.specSlug),
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
      {
        schema: {
          operationId: 'getOpenAPISpecVersionById',
          tags,
          summary: 'A version of an OpenAPI specification',
          params: VersionParams,
          response: { 200: VersionSchema },
        },
      },
      async (req) =>
        specs.getVersion(ctx, req.principal, req.params.organizationId, req.params.specSlug, req.params.versionId),
    );

    app.get(
      '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
      {
        schema: {
          operationId: 'getOpenAPISpecVersionContentById',
          tags,
          summary: 'The content of a version: its filesystem (every file of the specification)',
          params: VersionParams,
          response: { 200: ContentSchema },
        },
      },
      async (req, reply) =>
        reply
          .type(json)
          .send(
            preSerialized(
              await specs.getVersionContent(
                ctx,
                req.principal,
                req.params.organizationId,
                req.params.specSlug,
                req.params.versionId,
              ),
            ),
          ),
    );

    app.get(
      '/openapi/:organizationId/:specSlug.json',
      {
        config: { public: true },
        schema: {
          operationId: 'getPublishedOpenAPISpec',
          tags,
          summary:
            "Folio extension: a public OpenAPI specification's newest version as one JSON document (external $refs inlined), without a token (urls.published)",
          security: [],
          params: SpecParams,
        },
      },
      async (req, reply) => {
        const document = await specs.publishedDocument(ctx, req.params.organizationId, req.params.specSlug);
        return reply
          .type(json)
          .header('access-control-allow-origin', '*')
          .header('cache-control', 'public, max-age=60')
          .send(document);
      },
    );
  };
