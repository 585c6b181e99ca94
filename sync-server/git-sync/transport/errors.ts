import { Errors } from 'isomorphic-git';
import { OutboundError } from '../../outbound';

import { GitTransportError, type GitTransportErrorCode } from './transport-error';

export { GitTransportError, type GitTransportErrorCode };

/** `text` with every secret (and its common encodings) replaced; secrets under 4 characters cannot be told from text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      if (form.length >= 4) out = out.split(form).join('[REDACTED]');
  return out;
}

/** What the transport knows when it explains a failure. */
export interface FailureContext {
  /** The repository, without credentials, as users gave it. */
  url: string;
  hadCredentials: boolean;
  maxBytes: number;
  secrets: readonly string[];
}

function fromOutbound(err: OutboundError, ctx: FailureContext): GitTransportError {
  const where = ctx.url;
  switch (err.code) {
    case 'http-status':
      if (err.status === 401 || err.status === 403)
        return new GitTransportError(
          'auth',
          ctx.hadCredentials
            ? `${where} refused the credentials (HTTP ${err.status}): check the username and the password or token, and its access to this repository`
            : `${where} needs credentials (HTTP ${err.status})`,
        );
      if (err.status === 404 || err.status === 410)
        return new GitTransportError(
          'not-found',
          `there is no Git repository at ${where} (or these credentials cannot see it)`,
        );
      return new GitTransportError('network', `${where} answered HTTP ${err.status}`);
    case 'refused-address':
      return new GitTransportError(
        'refused-address',
        `${err.message} (FOLIO_OUTBOUND_ALLOW lists the internal hosts allowed)`,
      );
    case 'timeout':
    case 'connect-timeout':
      return new GitTransportError('timeout', `${where} did not answer in time: ${err.message}`);
    case 'too-large':
      return tooLarge(ctx);
    case 'aborted':
      return new GitTransportError('aborted', 'the Git operation was cancelled');
    case 'invalid-url':
      return new GitTransportError('invalid-url', `the repository URL is not valid: ${err.message}`);
    case 'too-many-redirects':
    case 'refused-redirect':
      return new GitTransportError('protocol', `${where}: ${err.message}`);
    default:
      return new GitTransportError('network', `${where} could not be reached: ${err.message}`);
  }
}

export function tooLarge(ctx: Pick<FailureContext, 'url' | 'maxBytes'>): GitTransportError {
  return new GitTransportError(
    'too-large',
    `${ctx.url} is larger than the ${ctx.maxBytes} bytes one Git sync may download or hold (FOLIO_GIT_MAX_BYTES)`,
  );
}

/** Any failure of an operation as a GitTransportError (with every secret redacted from its message). */
export function toTransportError(err: unknown, ctx: FailureContext): GitTransportError {
  let mapped: GitTransportError;
  if (err instanceof GitTransportError) mapped = err;
  else if (err instanceof OutboundError) mapped = fromOutbound(err, ctx);
  // The fetcher throws for non-2xx answers; isomorphic-git raises this for a 2xx other than 200
  // (203: Azure DevOps's sign-in page), which means the same as a 401.
  else if (err instanceof Errors.HttpError) {
    const status = (err.data as { statusCode?: number }).statusCode ?? 0;
    mapped = fromOutbound(new OutboundError('http-status', `answered ${status}`, status === 203 ? 401 : status), ctx);
  } else if (err instanceof Errors.SmartHttpError || err instanceof Errors.EmptyServerResponseError)
    mapped = new GitTransportError(
      'protocol',
      `${ctx.url} did not answer as a Git server (is it the repository's URL?)`,
    );
  else if (err instanceof Errors.RemoteCapabilityError)
    mapped = new GitTransportError('protocol', `${ctx.url} does not support what Folio needs: ${err.message}`);
  else
    mapped = new GitTransportError(
      'protocol',
      `the Git exchange with ${ctx.url} failed: ${(err as Error)?.message ?? String(err)}`,
    );
  const message = redact(mapped.message, ctx.secrets);
  return message === mapped.message ? mapped : new GitTransportError(mapped.code, message);
}
