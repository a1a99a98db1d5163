import { aiRequests, EMAIL_KINDS, emails, oneOf } from '../infra/metrics';
import type { EmailProvider } from '../providers/email/port';
import type { LanguageModel } from '../providers/llm/port';
import type { Transcriber } from '../providers/transcription/port';

/**
 * The providers as the service uses them, each request counted in the metrics (infra/metrics.ts). These
 * count requests, not outcomes: a request an activity retries is counted each time it is made, as the
 * provider sees it. Outcomes (a call's attempts, a message's status) are counted by their store.
 */

export function meteredEmail(provider: EmailProvider): EmailProvider {
  return {
    name: provider.name,
    ...(provider.deduplicates ? { deduplicates: true as const } : {}),
    async send(message) {
      const kind = oneOf(message.kind, EMAIL_KINDS);
      try {
        const result = await provider.send(message);
        emails.inc({ kind, result: result.sent ? 'sent' : 'refused' });
        return result;
      } catch (err) {
        emails.inc({ kind, result: 'error' });
        throw err;
      }
    },
  };
}

async function counted<T>(operation: string, request: () => Promise<T>): Promise<T> {
  try {
    const result = await request();
    aiRequests.inc({ operation, result: 'ok' });
    return result;
  } catch (err) {
    aiRequests.inc({ operation, result: 'error' });
    throw err;
  }
}

export function meteredLanguageModel(model: LanguageModel): LanguageModel {
  return {
    name: model.name,
    assessor: model.assessor,
    parseJobDescription: (text) => counted('parse_job_description', () => model.parseJobDescription(text)),
    generateQuestions: (job, count) => counted('generate_questions', () => model.generateQuestions(job, count)),
    generateScript: (brief) => counted('generate_script', () => model.generateScript(brief)),
    assessInterview: (job, answers) => counted('assess_interview', () => model.assessInterview(job, answers)),
  };
}

export function meteredTranscriber(transcriber: Transcriber | null): Transcriber | null {
  if (!transcriber) return null;
  return { name: transcriber.name, transcribe: (recording) => counted('transcribe', () => transcriber.transcribe(recording)) };
}
