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
  constructor(private readonly key: Buffer) {}

  /** Loads the installation's signing key, creating it on first use. */
  static async load(db: Queryable): Promise<UrlSigner> {
    return new UrlSigner(await installationSecret(db, 'url-signing'));
  }

  sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
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
