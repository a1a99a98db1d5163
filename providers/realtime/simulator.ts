import { LIVE_SAMPLE_RATE } from '../../shared/interviews/live';
import type { RealtimeEvents, RealtimeSession, RealtimeVoice } from './port';

/**
 * A realtime provider that needs no key, for `npm run dev` and the tests: it hears speech by its loudness (a
 * frame louder than SPEECH_RMS starts a turn, SILENCE_MS of quiet ends it), "transcribes" a turn as its length,
 * and speaks each response as a soft tone as long as its text would take to say, captioned with the words it
 * was told to say. No model runs, so it says what it is asked to, and a follow-up is a fixed sentence.
 */
const SPEECH_RMS = 1_000;
const SILENCE_MS = 700;
/** About how long a word takes to say. */
const MS_PER_WORD = 60;
/** The tone is sent in chunks of this many milliseconds, as a provider streams its audio. */
const CHUNK_MS = 100;

export function simulatorRealtime(): RealtimeVoice {
  return {
    name: 'simulator',
    async open(_options, events: RealtimeEvents): Promise<RealtimeSession> {
      let speaking = false;
      let heardMs = 0;
      let quietMs = 0;
      let closed = false;
      let response = 0;
      /** What the response under way says: a response cut off is transcribed as a provider does, with what it was saying. */
      let saying: string | null = null;

      function speak(text: string): void {
        const id = ++response;
        saying = text;
        const all = text.split(/\s+/).filter(Boolean);
        const words = all.length;
        const total = Math.max(1, Math.ceil((words * MS_PER_WORD) / CHUNK_MS));
        let chunks = total;
        const send = () => {
          if (closed || id !== response) return;
          if (chunks-- > 0) {
            events.interviewerAudio(tone(CHUNK_MS));
            // Its words as they are spoken, as a provider's transcript deltas come.
            events.interviewerSaying?.(all.slice(0, Math.ceil((words * (total - chunks)) / total)).join(' '));
            setImmediate(send);
            return;
          }
          saying = null;
          events.interviewerSaid(text);
          events.responseDone();
        };
        setImmediate(send);
      }

      /** Stops the response under way, transcribed as a provider does: with what it was saying. */
      function cancel(): void {
        response++;
        if (saying === null) return;
        const said = saying;
        saying = null;
        events.interviewerSaid(said);
        events.responseDone();
      }

      return {
        appendAudio(pcm) {
          if (closed) return;
          const ms = (pcm.length / 2 / LIVE_SAMPLE_RATE) * 1000;
          if (rms(pcm) >= SPEECH_RMS) {
            if (!speaking) {
              speaking = true;
              heardMs = 0;
              events.speechStarted();
            }
            heardMs += quietMs + ms;
            quietMs = 0;
          } else if (speaking) {
            quietMs += ms;
            if (quietMs >= SILENCE_MS) {
              speaking = false;
              quietMs = 0;
              events.speechStopped();
              events.candidateSaid(`(an answer of ${(heardMs / 1000).toFixed(1)} seconds)`);
            }
          }
        },
        respond(instructions) {
          // The server gives the words to say as `Say exactly: "…"` (askQuestion); a follow-up is left to a model.
          const quoted = /^Say exactly: "([\s\S]*)"$/.exec(instructions)?.[1];
          speak(quoted ?? 'Could you tell me a little more about that?');
        },
        cancelResponse: cancel,
        // As OpenAI's: the response stops if under way; what was heard of it is the conversation's to keep.
        truncate: cancel,
        close() {
          closed = true;
        },
      };
    },
  };
}

function rms(pcm: Buffer): number {
  let sum = 0;
  const n = Math.floor(pcm.length / 2);
  for (let i = 0; i < n; i++) {
    const s = pcm.readInt16LE(i * 2);
    sum += s * s;
  }
  return n === 0 ? 0 : Math.sqrt(sum / n);
}

/** `ms` of a quiet 440 Hz tone. */
function tone(ms: number): Buffer {
  const n = Math.round((LIVE_SAMPLE_RATE * ms) / 1000);
  const out = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) out.writeInt16LE(Math.round(2_000 * Math.sin((2 * Math.PI * 440 * i) / LIVE_SAMPLE_RATE)), i * 2);
  return out;
}
