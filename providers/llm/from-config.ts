import type { Config } from '../../infra/config';
import { type LanguageModel } from './port';
import { OfflineLanguageModel } from './offline';
import { OpenAiLanguageModel } from './openai';

/** OpenAI (or a compatible server) when a key is configured; otherwise the offline parser and generators. */
export function languageModel(config: Config): LanguageModel {
  if (!config.OPENAI_API_KEY) return new OfflineLanguageModel();
  return new OpenAiLanguageModel({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
  });
}
