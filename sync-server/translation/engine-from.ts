import type { AllowList } from '../outbound';
import type { EngineSettings, TranslationEngine } from './engine';
import { noEngineError } from './errors';
import { ENGINE_HTTP_DEFAULTS, type EngineHttp } from './http';
import { createLibreTranslate } from './libretranslate';
import { createOpenAi } from './openai';
import { RETRY_DEFAULTS, type RetryPolicy } from './retry';

/** How engines reach the network, and how patiently (tests shorten the backoff). */
export interface EngineOutbound {
  allow: AllowList;
  retry?: Partial<RetryPolicy>;
  http?: Partial<Omit<EngineHttp, 'allow'>>;
}

/** The configured engine, or undefined when none is (config.ts already checked URL and model). */
export function engineFrom(settings: EngineSettings, outbound: EngineOutbound): TranslationEngine | undefined {
  if (!settings.engine || !settings.url) return undefined;
  const http: EngineHttp = { ...ENGINE_HTTP_DEFAULTS, ...outbound.http, allow: outbound.allow };
  const retry: RetryPolicy = { ...RETRY_DEFAULTS, ...outbound.retry };
  const key = settings.key || undefined;
  if (settings.engine === 'libretranslate') return createLibreTranslate({ url: settings.url, key, http, retry });
  if (!settings.model) return undefined;
  return createOpenAi({ url: settings.url, key, model: settings.model, http, retry });
}

/** The configured engine; throws NO_ENGINE (telling the admin what to set) when there is none. */
export function requireEngine(settings: EngineSettings, outbound: EngineOutbound): TranslationEngine {
  const engine = engineFrom(settings, outbound);
  if (!engine) throw noEngineError();
  return engine;
}
