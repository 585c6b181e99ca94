import { X509Certificate } from 'node:crypto';

/**
 * An IdP signing certificate as PEM, from what an administrator pasted: a PEM
 * block, or its bare base64 body (as IdP metadata shows it, whitespace
 * allowed). Undefined when it is not an X.509 certificate, so a typo is a 400
 * when saved rather than a refused sign-in later.
 */
export function certificateAsPem(text: string): string | undefined {
  const body = text
    .replace(/-----BEGIN CERTIFICATE-----/, '')
    .replace(/-----END CERTIFICATE-----/, '')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return undefined;
  }
}
