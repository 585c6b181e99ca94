import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SECRET_KEY_FILE } from '../store/secret-box';
import type { EventTarget } from './types';

/**
 * GitBook's `environment.signingSecrets`: one secret per scope (integration, installation, space
 * installation, site installation) that an integration uses to check that a request to its public
 * endpoint was signed by this server. Derived (HMAC-SHA256) from the server's key rather than
 * stored: the same scope always gets the same secret, in every process, and nothing new is kept.
 */
export interface SigningSecrets {
  integration: string;
  installation?: string;
  spaceInstallation?: string;
  siteInstallation?: string;
}

const derive = (key: string, scope: string) =>
  createHmac('sha256', key).update(`folio-integration-signing\0${scope}`).digest('hex');

export function signingSecretsFor(key: string, target: EventTarget): SigningSecrets {
  const name = target.integrationName;
  const installation = target.installationId;
  return {
    integration: derive(key, `integration\0${name}`),
    ...(installation ? { installation: derive(key, `installation\0${name}\0${installation}`) } : {}),
    ...(installation && target.spaceId
      ? { spaceInstallation: derive(key, `space\0${name}\0${installation}\0${target.spaceId}`) }
      : {}),
    ...(installation && target.siteId
      ? { siteInstallation: derive(key, `site\0${name}\0${installation}\0${target.siteId}`) }
      : {}),
  };
}

/**
 * The key signing secrets derive from: FOLIO_SECRET_KEY, or the data folder's secret.key (which
 * loadSecretBox made on the first start) — the same in every process sharing either.
 */
export async function loadSigningKey(config: { secretKey?: string | undefined; dataDir: string }): Promise<string> {
  if (config.secretKey !== undefined) return config.secretKey.trim();
  return (await readFile(join(config.dataDir, SECRET_KEY_FILE), 'utf8')).trim();
}
