import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import * as glossary from './glossary';
import {
  CreateTranslationBody,
  GlossaryEntryParams,
  GlossaryEntrySchema,
  GlossaryListQuery,
  TranslationListSchema,
  TranslationParams,
  TranslationSchema,
  UpdateGlossaryBody,
  UpdateTranslationBody,
} from './schemas';
import * as translations from './service';

const tags = ['Translations'];

/** GitBook's "Translations" group and its glossary, under /v1/orgs/{organizationId}. */
export const translationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/translations',
      {
        schema: {
          operationId: 'listTranslations',
          tags,
          summary: 'List the translations of the organization (of the spaces the caller sees)',
          params: OrgParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: TranslationListSchema },
        },
      },
      async (req) =>
        translations.listTranslations(ctx, req.principal, req.params.organizationId, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/translations',
      {
        schema: {
          operationId: 'createTranslation',
          tags,
          summary: 'Create a translation of a space; its first run is queued',
          params: OrgParams,
          body: CreateTranslationBody,
          response: { 201: TranslationSchema },
        },
      },
      async (req, reply) => {
        const t = await translations.createTranslation(ctx, req.principal, req.params.organizationId, req.body);
        return reply.status(201).header('location', t.urls.location).send(t);
      },
    );

    app.get(
      '/orgs/:organizationId/translations/:translationId',
      {
        schema: {
          operationId: 'getTranslation',
          tags,
          summary: 'Get a translation, with its newest run',
          params: TranslationParams,
          response: { 200: TranslationSchema },
        },
      },
      async (req) =>
        translations.getTranslation(ctx, req.principal, req.params.organizationId, req.params.translationId),
    );

    app.put(
      '/orgs/:organizationId/translations/:translationId',
      {
        schema: {
          operationId: 'updateTranslation',
          tags,
          summary: "Change a translation's instructions (the next run follows them)",
          params: TranslationParams,
          body: UpdateTranslationBody,
          response: { 200: TranslationSchema },
        },
      },
      async (req) =>
        translations.updateTranslation(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.translationId,
          req.body.instructions,
        ),
    );

    app.delete(
      '/orgs/:organizationId/translations/:translationId',
      {
        schema: {
          operationId: 'deleteTranslation',
          tags,
          summary: 'Delete a translation (its result space is kept)',
          params: TranslationParams,
          response: {
            204: Type.Null({ description: 'Translation did not exist' }),
            205: Type.Null({ description: 'Translation has been deleted' }),
          },
        },
      },
      async (req, reply) => {
        const deleted = await translations.deleteTranslation(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.translationId,
        );
        return reply.status(deleted ? 205 : 204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/translations/:translationId/run',
      {
        schema: {
          operationId: 'runTranslation',
          tags,
          summary: 'Queue a run of the translation (409 while one is queued or running)',
          params: TranslationParams,
          response: { 204: Type.Null({ description: 'A run has been queued' }) },
        },
      },
      async (req, reply) => {
        await translations.runTranslation(ctx, req.principal, req.params.organizationId, req.params.translationId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/translations-glossary',
      {
        schema: {
          operationId: 'listGlossaryEntries',
          tags,
          summary: "List the organization's glossary entries (orderBy: by their term in that language)",
          params: OrgParams,
          querystring: Type.Object({ ...PagingQuery, ...GlossaryListQuery }),
          response: { 200: ListOf(GlossaryEntrySchema) },
        },
      },
      async (req) =>
        glossary.listGlossary(ctx, req.principal, req.params.organizationId, pageRequest(req.query), req.query.orderBy),
    );

    app.put(
      '/orgs/:organizationId/translations-glossary',
      {
        schema: {
          operationId: 'updateGlossaryEntries',
          tags,
          summary: 'Insert, update and delete glossary entries, all or nothing',
          params: OrgParams,
          body: UpdateGlossaryBody,
          response: { 204: Type.Null({ description: 'The glossary has been updated' }) },
        },
      },
      async (req, reply) => {
        await glossary.updateGlossary(ctx, req.principal, req.params.organizationId, req.body.operations);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/translations-glossary/:glossaryEntryId',
      {
        schema: {
          operationId: 'getGlossaryEntry',
          tags,
          summary: 'Get a glossary entry',
          params: GlossaryEntryParams,
          response: { 200: GlossaryEntrySchema },
        },
      },
      async (req) =>
        glossary.getGlossaryEntry(ctx, req.principal, req.params.organizationId, req.params.glossaryEntryId),
    );
  };
