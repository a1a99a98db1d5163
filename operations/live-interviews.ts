import { conversationRecordingId, expiresAtOf, type InterviewDoc } from '../infra/documents/interviews';
import { liveConversationsAtOnce } from '../infra/documents/workspaces';
import { linkExpired } from '../shared/interviews/deadlines';
import { LIVE_LIMITS } from '../shared/interviews/live';
import type { OperationDeps } from './deps';
import { liveConversations, liveReconnects } from '../infra/metrics';
import type { InterviewSteps } from './interview-steps';
import { startConversation, type Conversation, type LiveLink } from './live-conversation';

/** Why a live conversation cannot be opened now. */
export type LiveRefusal = 'not_live' | 'no_consent' | 'closed' | 'busy' | 'workspace_busy';
export type TicketOutcome = { ticket: string; expires_at: Date } | { refused: LiveRefusal };

/**
 * Live interviews (docs/live-interviews.md): the ticket the page asks for after consent, and the conversations
 * this process holds, at most LIVE_CONVERSATIONS_PER_PROCESS and one per interview: a second socket for an
 * interview (another tab, a reload) takes its conversation over, and the first is told so.
 */
export function liveInterviews(deps: OperationDeps & { steps: InterviewSteps }) {
  const { stores, config, realtime, logger, steps } = deps;
  const held = new Map<string, Conversation>();
  /** The workspace slot each interview's conversations in this process hold (stores/live-slots.ts), and how many use it. */
  const slots = new Map<string, { key: string; users: number }>();
  /**
   * Renews the slots every minute while the process holds one, and only then: a timer left running when none
   * is held kept these operations, every store and the settings they were built with alive after the service
   * was stopped (a test's whole file, 4 MB each, in a process that starts one service after another).
   */
  let renewal: NodeJS.Timeout | null = null;
  function renewWhileHeld(): void {
    if (slots.size === 0 && renewal) {
      clearInterval(renewal);
      renewal = null;
    } else if (slots.size > 0 && !renewal) {
      renewal = setInterval(() => {
        for (const [interviewId, { key }] of slots)
          void stores.liveSlots.renew(key, interviewId).catch((err: unknown) => logger.warn({ err }, 'live slot not renewed'));
      }, 60_000);
      renewal.unref();
    }
  }
  function giveSlot(interviewId: string): void {
    const slot = slots.get(interviewId);
    if (!slot || --slot.users > 0) return;
    slots.delete(interviewId);
    renewWhileHeld();
    void stores.liveSlots.give(slot.key, interviewId).catch((err: unknown) => logger.warn({ err }, 'live slot not given back'));
  }
  /** Each interview's latest conversation until its recording is closed: the next one waits for it. */
  const latest = new Map<string, Conversation>();

  /** Why the interview cannot hold a conversation now, or null when it can. */
  function refusal(interview: InterviewDoc, at: Date): LiveRefusal | null {
    if (interview.interview_mode !== 'live' || interview.live_switched_at) return 'not_live';
    if (!interview.consent) return 'no_consent';
    if (interview.erased_at || interview.status !== 'started' || linkExpired(interview.status, expiresAtOf(interview), at)) return 'closed';
    return null;
  }

  return {
    /** A ticket that opens the interview's socket for a minute, minted only after the candidate's consent. */
    async ticket(interview: InterviewDoc, at: Date): Promise<TicketOutcome> {
      const refused = refusal(interview, at);
      if (refused) return { refused };
      if (held.size >= config.LIVE_CONVERSATIONS_PER_PROCESS && !held.has(interview._id)) return { refused: 'busy' };
      const expires_at = new Date(at.getTime() + LIVE_LIMITS.ticketMs);
      return { ticket: await stores.signedTokens.liveTickets.mint(interview._id, expires_at), expires_at };
    },

    /** Whether a socket with this ticket may open the interview's conversation now. */
    async admits(interview: InterviewDoc, ticket: string, at: Date): Promise<LiveRefusal | 'invalid_ticket' | null> {
      if (!(await stores.signedTokens.liveTickets.valid(interview._id, ticket, at))) return 'invalid_ticket';
      const refused = refusal(interview, at);
      if (refused) return refused;
      if (held.size >= config.LIVE_CONVERSATIONS_PER_PROCESS && !held.has(interview._id)) return 'busy';
      if (slots.has(interview._id)) return null;
      // One of the workspace's slots, across the processes, held from here until the conversation ends.
      const workspace = await stores.workspaces.get(interview.workspace_id);
      const key = await stores.liveSlots.take(interview.workspace_id, interview._id, liveConversationsAtOnce(workspace), at);
      if (!key) return 'workspace_busy';
      const slot = { key, users: 0 };
      slots.set(interview._id, slot);
      renewWhileHeld();
      // A socket that never opens after its admission gives the slot back.
      setTimeout(() => slot.users === 0 && slots.get(interview._id) === slot && giveSlot(interview._id), 30_000).unref();
      return null;
    },

    /** Opens the conversation on a socket just admitted; one the interview held before is taken over. */
    async converse(interview: InterviewDoc, link: LiveLink): Promise<Conversation> {
      const previous = latest.get(interview._id);
      // Whatever came before this socket (a drop, a reload, another tab), the interview's conversation goes on.
      if (previous || (await stores.recordings.get(conversationRecordingId(interview._id)))) liveReconnects.inc({ kind: 'socket' });
      previous?.end('taken_over');
      if (previous) await previous.closed;
      let conversation: Conversation | null = null;
      let closed = false;
      const slot = slots.get(interview._id);
      if (slot) slot.users++;
      const started = await startConversation({ stores, steps, realtime, logger, now: () => new Date() }, interview, {
        ...link,
        close(reason) {
          if (!closed) giveSlot(interview._id);
          closed = true;
          if (conversation && held.get(interview._id) === conversation) {
            held.delete(interview._id);
            liveConversations.set(held.size);
          }
          link.close(reason);
        },
      });
      conversation = started;
      if (!closed) held.set(interview._id, started);
      liveConversations.set(held.size);
      latest.set(interview._id, started);
      void started.closed.then(() => latest.get(interview._id) === started && latest.delete(interview._id));
      return started;
    },

    /** Conversations this process holds now (the `hiring_live_conversations` gauge). */
    count: () => held.size,
  };
}

export type LiveInterviews = ReturnType<typeof liveInterviews>;
