import type { Logger } from '../infra/logger';
import type { RealtimeEvents, RealtimeSession, RealtimeVoice } from '../providers/realtime/port';
import { liveProviderErrors, liveReconnects } from '../infra/metrics';

/** How often a provider's session may fail in one conversation before it ends (a new one takes the conversation so far). */
const SESSION_RETRIES = 2;

/**
 * A live conversation's session with the realtime provider (docs/live-interviews.md): opened with the
 * conversation so far about the open question as the provider's conversation items (never inside the
 * instructions: the candidate's words are their answer, not a rule), replaced before the provider's length limit
 * once neither side is speaking, and opened again after a failure, up to SESSION_RETRIES times, so the candidate
 * notices nothing. The conversation (operations/live-conversation.ts) hears the provider's events through it.
 */
export function providerSession(opts: {
  realtime: RealtimeVoice;
  instructions: string;
  interviewId: string;
  logger: Logger;
  /** The provider's events the conversation hears; a failure and an error the session survives are handled here. */
  events: Omit<RealtimeEvents, 'failed' | 'providerError'>;
  /** What was said so far about the open question, in order. */
  history(): ReadonlyArray<{ who: 'interviewer' | 'candidate'; text: string }>;
  /** A side is speaking: a replacement waits. */
  speaking(): boolean;
  ended(): boolean;
  /** Runs a step after the conversation's steps before it. */
  serially(step: () => Promise<void>): void;
  /** A new session after a failure: the open question is asked again. */
  reopened(): void;
  /** The sessions failed past their retries: the conversation ends. */
  gaveUp(): void;
}) {
  const { realtime, logger, interviewId } = opts;
  let session: RealtimeSession | null = null;
  let failures = 0;
  let rotation: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const opened = await realtime.open(
      { instructions: opts.instructions, history: opts.history() },
      {
        ...opts.events,
        providerError(message) {
          liveProviderErrors.inc({ provider: realtime.name, kind: 'error' });
          logger.warn({ interviewId, message }, 'live interview: the realtime provider reported an error');
        },
        failed(message) {
          logger.warn({ interviewId, message }, 'live interview: the realtime session failed');
          session?.close();
          if (opts.ended()) return;
          liveProviderErrors.inc({ provider: realtime.name, kind: 'session_failed' });
          if (++failures > SESSION_RETRIES) return opts.gaveUp();
          liveReconnects.inc({ kind: 'provider_session' });
          opts.serially(async () => {
            await connect();
            opts.reopened();
          });
        },
      },
    );
    session = opened;
    if (realtime.maxSessionMs) {
      if (rotation) clearTimeout(rotation);
      rotation = setTimeout(() => opts.serially(replace), realtime.maxSessionMs);
      rotation.unref();
    }
  }

  /** Replaces the session before the provider's length limit, once neither side is speaking. */
  async function replace(): Promise<void> {
    if (opts.ended()) return;
    if (opts.speaking()) {
      rotation = setTimeout(() => opts.serially(replace), 1_000);
      return;
    }
    const old = session;
    await connect();
    old?.close();
  }

  return {
    /** Opens the first session; throws when the provider cannot be reached. */
    open: connect,
    /** The session under way, if any. */
    get current(): RealtimeSession | null {
      return session;
    },
    close(): void {
      if (rotation) clearTimeout(rotation);
      session?.close();
    },
  };
}
