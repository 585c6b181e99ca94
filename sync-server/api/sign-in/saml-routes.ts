import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { EntityId } from '../../http/schemas';
import type * as SamlModule from '../../identity/saml';
import type * as SamlProvisionModule from '../../identity/saml-provision';
import { serviceProviderUrls } from '../../identity/saml-urls';
import { findSamlProviderRow, findSamlProviderRowForEmailDomain } from '../../store/saml-providers';
import { finishWebSignIn, safeNext } from './finish';
import { installFormParser } from './form-body';
import { sendSignInError } from './page';

/** A SAML response is a signed XML document, base64-encoded: far larger than other sign-in forms. */
const SAML_FORM_LIMIT = 512 * 1024;

const ProviderParams = Type.Object({ providerId: EntityId });
const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });

let samlModule: Promise<typeof SamlModule> | undefined;
/**
 * identity/saml.ts and @node-saml (XML, signatures) load on the first SAML request, not at boot;
 * saml-provision.ts too (it imports identity/saml.ts).
 */
const loadSaml = () => (samlModule ??= import('../../identity/saml'));
let provisionModule: Promise<typeof SamlProvisionModule> | undefined;
const loadProvision = () => (provisionModule ??= import('../../identity/saml-provision'));

/**
 * SAML single sign-on in the browser (outside /v1, no token): this server's
 * metadata for each provider, the start of a sign-in (a redirect to the IdP),
 * the assertion consumer service (ACS) the IdP posts back to, and "Continue
 * with SSO" by email domain. Registered under `/auth`.
 */
export const samlRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    installFormParser(app, SAML_FORM_LIMIT);

    const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
      sendSignInError(request, reply, status, message);

    app.get('/saml/:providerId/metadata', { schema: { hide: true, params: ProviderParams } }, async (req, reply) => {
      const provider = await findSamlProviderRow(ctx.db, req.params.providerId);
      if (!provider) return refuse(req, reply, 404, 'There is no such single sign-on provider.');
      const { serviceProviderMetadata } = await loadSaml();
      return reply
        .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
        .send(serviceProviderMetadata(ctx.urls.root, provider));
    });

    app.get(
      '/saml/:providerId/start',
      { schema: { hide: true, params: ProviderParams, querystring: NextQuery } },
      async (req, reply) => {
        const provider = await findSamlProviderRow(ctx.db, req.params.providerId);
        if (!provider) return refuse(req, reply, 404, 'There is no such single sign-on provider.');
        const { SamlRefusal, startSamlSignIn } = await loadSaml();
        try {
          const url = await startSamlSignIn(ctx.db, ctx.urls.root, provider, req.query.next, ctx.clock.now());
          return reply.header('cache-control', 'no-store').redirect(url, 302);
        } catch (err) {
          if (err instanceof SamlRefusal) return refuse(req, reply, err.status, err.message);
          throw err;
        }
      },
    );

    app.post('/saml/:providerId/acs', { schema: { hide: true, params: ProviderParams } }, async (req, reply) => {
      const provider = await findSamlProviderRow(ctx.db, req.params.providerId);
      if (!provider) return refuse(req, reply, 404, 'There is no such single sign-on provider.');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const samlResponse = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : '';
      if (!samlResponse)
        return refuse(req, reply, 400, 'Expected a form post with a SAMLResponse field (HTTP-POST binding).');
      const [{ SamlRefusal, consumeSamlResponse }, { provisionSamlMember }] = await Promise.all([
        loadSaml(),
        loadProvision(),
      ]);
      try {
        const now = ctx.clock.now();
        const { person, next } = await consumeSamlResponse(ctx.db, ctx.urls.root, provider, samlResponse, now);
        const { userId, createdUser, addedMember } = await provisionSamlMember(ctx.db, provider, person, now);
        req.log.info(
          { providerId: provider.id, organizationId: provider.organization_id, userId, createdUser, addedMember },
          'SAML sign-in',
        );
        return finishWebSignIn(ctx, req, reply, userId, 'saml', next);
      } catch (err) {
        if (err instanceof SamlRefusal) {
          req.log.info({ providerId: provider.id, reason: err.message }, 'SAML sign-in refused');
          return refuse(req, reply, err.status, err.message);
        }
        throw err;
      }
    });

    app.get(
      '/sso/start',
      {
        schema: {
          hide: true,
          querystring: Type.Object({
            email: Type.Optional(Type.String({ maxLength: 320 })),
            next: Type.Optional(Type.String({ maxLength: 2000 })),
          }),
        },
      },
      async (req, reply) => {
        const email = req.query.email?.trim().toLowerCase() ?? '';
        const at = email.lastIndexOf('@');
        const domain = at > 0 ? email.slice(at + 1) : '';
        if (!domain) return refuse(req, reply, 400, 'Enter your work email address to find your organization.');
        const provider = await findSamlProviderRowForEmailDomain(ctx.db, domain);
        if (!provider)
          return refuse(
            req,
            reply,
            404,
            `No organization on this server signs in ${domain} addresses with single sign-on.`,
          );
        const start = new URL(serviceProviderUrls(ctx.urls.root, provider.id).startURL);
        if (req.query.next) start.searchParams.set('next', safeNext(req.query.next));
        return reply.header('cache-control', 'no-store').redirect(start.toString(), 303);
      },
    );
  };
