import { liveFirstAudio, liveResponseLatency, liveTurnLatency } from '../infra/metrics';

/**
 * What the candidate waits for in a live conversation (docs/live-interviews.md#latency), measured at both ends.
 *
 * This service sees the end of the candidate's speech (the provider's speech_stopped), the transcript, its own
 * request for the interviewer's answer, and that answer's first audio: `hiring_live_turn_latency_seconds`, and
 * the provider's own share of the wait (transcribing, then answering).
 *
 * The page sees what the candidate hears: the answer's first sound scheduled on its audio clock, after the
 * `thinking` state reached it, and the greeting's after "Start the conversation". It reports each once
 * (`first_sound`): `hiring_live_response_latency_seconds{part="total"}`, with `part="ours"` the rest once the
 * provider's share is taken out, and `hiring_live_first_audio_seconds`. A report with no answer waiting for it,
 * or a second greeting, is not counted: a page cannot fill the histograms.
 */
export function conversationLatency() {
  let stoppedAt: number | null = null;
  let transcribedAt: number | null = null;
  let askedAt: number | null = null;
  /** The provider's share of the answer the page has yet to report, in ms. */
  let providerMs: number | null = null;
  let greeted = false;
  return {
    speechStopped(): void {
      stoppedAt = performance.now();
    },
    transcribed(): void {
      transcribedAt = performance.now();
    },
    /** The provider is asked to speak: the first time after a transcript, for the reply to the candidate's turn. */
    asked(): void {
      if (stoppedAt === null || transcribedAt === null || askedAt !== null) return;
      askedAt = performance.now();
      liveTurnLatency.observe({ part: 'ours' }, (askedAt - transcribedAt) / 1000);
    },
    /** The first audio of a reply reached this service. */
    firstAudio(): void {
      if (askedAt === null || stoppedAt === null || transcribedAt === null) return;
      const at = performance.now();
      liveTurnLatency.observe({ part: 'total' }, (at - stoppedAt) / 1000);
      providerMs = transcribedAt - stoppedAt + (at - askedAt);
      stoppedAt = transcribedAt = askedAt = null;
    },
    /** The page played a reply's first sound `ms` after the candidate's answer ended, or after Start. */
    heard(after: 'answer' | 'start', ms: number): void {
      if (after === 'start') {
        if (!greeted) liveFirstAudio.observe(ms / 1000);
        greeted = true;
        return;
      }
      if (providerMs === null) return;
      liveResponseLatency.observe({ part: 'total' }, ms / 1000);
      liveResponseLatency.observe({ part: 'ours' }, Math.max(0, ms - providerMs) / 1000);
      providerMs = null;
    },
  };
}
