import { postJson, type EngineHttp } from './http';
import type { BatchRequest, TranslationEngine } from './engine';
import { TranslateError } from './errors';
import { parseAnswer, systemPrompt, userMessage } from './openai-prompt';
import type { RetryPolicy } from './retry';

/**
 * An OpenAI-compatible chat-completions engine (OpenAI, Azure-style gateways, Ollama, vLLM, LiteLLM…):
 * `POST {url}/chat/completions` with the rules, glossary and instructions as the system prompt and the
 * segments as a JSON user message, temperature 0 (the same text gives the same translation, which is
 * what a memory of translations assumes) and a JSON-object answer.
 */

/**
 * 50 segments and 8,000 characters a call: the answer is about as long as the request, and 8,000
 * characters (2,000 to 4,000 tokens depending on the language) stay inside the output limit of every
 * current chat model (4,096 tokens for the smallest), so an answer is never cut short; a broken
 * answer then costs one moderate call to repeat.
 */
export const OPENAI_LIMITS = { maxSegments: 50, maxChars: 8_000 };

export interface OpenAiOptions {
  url: string;
  key?: string;
  model: string;
  http: EngineHttp;
  retry: RetryPolicy;
}

interface ChatAnswer {
  choices?: { message?: { content?: unknown }; finish_reason?: string }[];
}

export function createOpenAi(options: OpenAiOptions): TranslationEngine {
  const base = options.url.replace(/\/+$/, '');
  const label = `The OpenAI-compatible API at ${base} (model ${options.model})`;
  return {
    kind: 'openai',
    supportsInstructions: true,
    fingerprint: `openai ${base} ${options.model}`,
    label,
    limits: OPENAI_LIMITS,
    retry: options.retry,
    async translateBatch(texts: readonly string[], request: BatchRequest) {
      const answer = (await postJson(options.http, {
        url: `${base}/chat/completions`,
        headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
        body: {
          model: options.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: systemPrompt(request) },
            { role: 'user', content: userMessage(texts, request) },
          ],
        },
        signal: request.signal,
        engine: label,
        key: options.key,
      })) as ChatAnswer | null;
      const content = answer?.choices?.[0]?.message?.content;
      if (typeof content !== 'string')
        throw new TranslateError('ENGINE_ERROR', `${label} answered without a message`, true);
      return parseAnswer(content, texts.length);
    },
  };
}
