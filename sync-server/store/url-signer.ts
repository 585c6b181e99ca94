import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db';
import { ApiError } from '../http/errors';
import { installationSecret } from './server-secrets';

/**
 * HMAC-SHA256 signatures for capability URLs (upload slots, file downloads):
 * a URL carries its own authorization, so browsers can use it in <img src>
 * and uploads need no bearer token. The key is generated once per
 * installation and kept in the database so every server process agrees.
 */
export class UrlSigner {
  private key: Buffer | undefined;
  private constructor() {}

  /**
   * A signer at once, the installation's key (created on first use) loading in the background until
   * `loaded` resolves: the server builds
   * its routes while the database opens and awaits `loaded` before it listens, so no request signs
   * or checks a link without the key (sign() throws if one did).
   */
  static loading(db: Queryable): { signer: UrlSigner; loaded: Promise<void> } {
    const signer = new UrlSigner();
    const loaded = installationSecret(db, 'url-signing').then((key) => {
      signer.key = key;
    });
    return { signer, loaded };
  }

  private get secret(): Buffer {
    if (!this.key) throw new Error('the URL-signing key is not loaded yet');
    return this.key;
  }

  sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  /**
   * Checks a signed link that expires (`expires` in Unix seconds): 403 when the
   * signature does not cover `payload`, or when the link has expired. `what`
   * names the link in the messages ("upload URL", "PDF link").
   */
  requireValidLink(payload: string, signature: string, expires: number, now: Date, what: string): void {
    if (!this.verify(payload, signature)) throw new ApiError(403, `Invalid ${what} signature`);
    if (expires * 1000 < now.getTime()) throw new ApiError(403, `This ${what} has expired; request a new one`);
  }

  /** Constant-time check, so a forger learns nothing from response timing. */
  verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
