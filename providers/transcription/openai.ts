import OpenAI, { toFile } from 'openai';
import { fromApiError } from '../llm/openai';
import type { Recording, Transcriber } from './port';

export interface OpenAiTranscriberOptions {
  apiKey: string;
  baseUrl?: string;
  /** A transcription model, `gpt-4o-mini-transcribe` by default (OPENAI_TRANSCRIBE_MODEL). */
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** The file name OpenAI reads the container from: it decides by the extension, not by the part's type. */
const EXTENSION: Record<Recording['type'], string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'audio/wav': 'wav',
};

/** OpenAI's transcription API (POST /v1/audio/transcriptions, multipart), as plain text. */
export class OpenAiTranscriber implements Transcriber {
  readonly name = 'openai';
  private readonly client: OpenAI;

  constructor(private readonly opts: OpenAiTranscriberOptions) {
    this.client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs, maxRetries: opts.maxRetries });
  }

  async transcribe({ bytes, type }: Recording): Promise<string> {
    try {
      const file = await toFile(bytes, `answer.${EXTENSION[type]}`, { type });
      const result = await this.client.audio.transcriptions.create({ file, model: this.opts.model, response_format: 'json' });
      return result.text.trim();
    } catch (err) {
      throw fromApiError(err);
    }
  }
}
