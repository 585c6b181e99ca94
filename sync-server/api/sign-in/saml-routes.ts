import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { EntityId } from '../../http/schemas';
import type * as SamlModule from '../../identity/saml';
import type { SamlVerifier } from '../../identity/saml';
import { SAML_FORM_LIMIT } from '../../identity/saml-preparse';
import type * as SamlProvisionModule from '../../identity/saml-provision';
import { serviceProviderUrls } from '../../identity/saml-urls';
import { findSamlProviderRow, findSamlProviderRowForEmailDomain } from '../../store/saml-providers';
import { finishWebSignIn, safeNext } from './finish';
import { installFormParser } from './form-body';
import { sendSignInError } from './page';
import { pendingSamlRequests, samlRequestCookie, startedInThisBrowser } from './saml-request-cookie';

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
 * metadata for each provider, the start of a sign-in (a redirect to the IdP,
 * and a cookie binding it to this browser: saml-request-cookie.ts), the
 * assertion consumer service (ACS) the IdP posts back to (bounded, checked in
 * worker threads: identity/saml-verifier.ts), and "Continue with SSO" by email
 * domain. Registered under `/auth`.
 */
export const samlRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // A SAML response is a signed XML document, base64-encoded: far larger than other sign-in forms,
    // but bounded well below what would keep node-saml busy (saml-preparse.ts).
    installFormParser(app, SAML_FORM_LIMIT);

    const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
      sendSignInError(request, reply, status, message);

    // A form over the limit is refused unread by the parser: say so as a sign-in refusal (a page for
    // a browser). Any other error goes on to the server's handler.
    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw err;
      return refuse(
        request,
        reply,
        413,
        `This SAML response is larger than this server accepts (${SAML_FORM_LIMIT / 1024} kB).`,
      );
    });

    // The worker threads that check responses: made on the first ACS post, closed with the server.
    let verifier: SamlVerifier | undefined;
    app.addHook('onClose', async () => {
      await verifier?.close();
    });

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
        const { SAML_REQUEST_TTL_MS, SamlRefusal, startSamlSignIn } = await loadSaml();
        try {
          const { url, requestId } = await startSamlSignIn(
            ctx.db,
            ctx.urls.root,
            provider,
            req.query.next,
            ctx.clock.now(),
          );
          const pending = pendingSamlRequests(req.headers.cookie);
          reply.header(
            'set-cookie',
            samlRequestCookie(ctx.urls.root, provider.id, pending, requestId, SAML_REQUEST_TTL_MS / 1000),
          );
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
      const [saml, { provisionSamlMember }] = await Promise.all([loadSaml(), loadProvision()]);
      const { SamlRefusal, consumeSamlResponse } = saml;
      verifier ??= new saml.SamlVerifier();
      const pending = pendingSamlRequests(req.headers.cookie);
      try {
        const now = ctx.clock.now();
        const { person, next } = await consumeSamlResponse(ctx.db, ctx.urls.root, provider, samlResponse, now, {
          verifier,
          browser: { startedHere: (requestId) => startedInThisBrowser(pending, requestId) },
        });
        const { userId, createdUser, addedMember } = await provisionSamlMember(ctx.db, provider, person, now);
        req.log.info(
          { providerId: provider.id, organizationId: provider.organization_id, userId, createdUser, addedMember },
          'SAML sign-in',
        );
        return finishWebSignIn(ctx, req, reply, userId, 'saml', next);
      } catch (err) {
        if (err instanceof SamlRefusal) {
          req.log.info({ providerId: provider.id, reason: err.message }, 'SAML sign-in refused');
          if (err.status === 503) reply.header('retry-after', '5');
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
