import { randomUUID } from 'node:crypto';
import { conversationRecordingId, expiresAtOf, type InterviewDoc } from '../infra/documents/interviews';
import { liveConversationsAtOnce } from '../infra/documents/workspaces';
import { linkExpired } from '../shared/interviews/deadlines';
import { LIVE_LIMITS, type LiveEnd } from '../shared/interviews/live';
import type { OperationDeps } from './deps';
import { liveConversations, liveProviderErrors, liveReconnects } from '../infra/metrics';
import type { InterviewSteps } from './interview-steps';
import { startConversation, type Conversation, type LiveLink } from './live-conversation';
import { liveWatch } from './live-watch';

/** Why a live conversation cannot be opened now. */
export type LiveRefusal = 'not_live' | 'no_consent' | 'closed' | 'busy' | 'workspace_busy';
export type TicketOutcome = { ticket: string; expires_at: Date } | { refused: LiveRefusal };

/**
 * How long a socket waits after its hold, before it begins, for another opened at the same moment: a later hold
 * taken meanwhile wins, and this socket is taken over before it says a word. After it, a new socket takes the
 * conversation over as a reload does (within LIVE_WATCH_MS on another process).
 */
const SAME_MOMENT_MS = 150;

/** A conversation that never began (taken over at once, or no provider session): its socket is closed already. */
const NEVER_BEGAN: Conversation = { audio: () => undefined, control: () => undefined, end: () => undefined, closed: Promise.resolve() };

/**
 * Live interviews (docs/live-interviews.md): the ticket the page asks for after consent, and the conversations
 * this process holds, at most LIVE_CONVERSATIONS_PER_PROCESS (sockets admitted and not yet begun count), and one
 * per interview across every process: each socket takes the interview's next hold (stores/live-holds.ts), the
 * socket before it is told it was taken over, and the new conversation begins once the old one's recording is
 * closed. The watch (operations/live-watch.ts) ends a conversation whose interview was erased, switched to
 * writing or ran out of time, or whose hold a later socket took, within a second or two.
 */
export function liveInterviews(deps: OperationDeps & { steps: InterviewSteps }) {
  const { stores, config, realtime, logger, steps } = deps;
  const held = new Map<string, { conversation: Conversation; hold: number }>();
  /** Interviews admitted in this process whose conversation has not begun: counted against the cap from the moment of admission. */
  const admitted = new Set<string>();
  const atCap = (interviewId: string) =>
    !held.has(interviewId) && !admitted.has(interviewId) && held.size + admitted.size >= config.LIVE_CONVERSATIONS_PER_PROCESS;
  /** The workspace slot each interview's conversations in this process hold (stores/live-slots.ts), and how many use it. */
  const slots = new Map<string, { key: string; users: number }>();
  function giveSlot(interviewId: string): void {
    const slot = slots.get(interviewId);
    if (!slot || --slot.users > 0) return;
    slots.delete(interviewId);
    watch.changed();
    void stores.liveSlots.give(slot.key, interviewId).catch((err: unknown) => logger.warn({ err }, 'live slot not given back'));
  }
  /** Each interview's latest conversation in this process until its recording is closed: the next one waits for it. */
  const latest = new Map<string, Conversation>();
  const watch = liveWatch({ stores, logger, held, slots });

  /** Why the interview cannot hold a conversation now, or null when it can. */
  function refusal(interview: InterviewDoc, at: Date): LiveRefusal | null {
    if (interview.interview_mode !== 'live' || interview.live_switched_at) return 'not_live';
    if (!interview.consent) return 'no_consent';
    if (interview.erased_at || interview.status !== 'started' || linkExpired(interview.status, expiresAtOf(interview), at)) return 'closed';
    return null;
  }

  /** The conversation of hold `hold`, once the one before it has ended; a failure to open the provider's session closes the socket. */
  async function begin(interview: InterviewDoc, hold: number, link: LiveLink): Promise<Conversation> {
    const slot = slots.get(interview._id);
    if (slot) slot.users++;
    let conversation: Conversation | null = null;
    let closed = false;
    const ended = (reason: LiveEnd) => {
      if (!closed) giveSlot(interview._id);
      closed = true;
      if (conversation && held.get(interview._id)?.conversation === conversation) {
        held.delete(interview._id);
        liveConversations.set(held.size);
        watch.changed();
      }
      link.close(reason);
    };
    try {
      conversation = await startConversation({ stores, steps, realtime, logger, now: () => new Date() }, interview, {
        ...link,
        close: ended,
      });
    } catch (err) {
      // No provider session (a closed port, a refused or silent upgrade): the socket is told to try later, the
      // slot and the hold are given back, and the process goes on.
      logger.warn({ err, interviewId: interview._id }, 'live interview: the realtime provider could not be reached');
      liveProviderErrors.inc({ provider: realtime.name, kind: 'open_failed' });
      ended('unavailable');
      await stores.liveHolds.end(interview._id, hold);
      return NEVER_BEGAN;
    }
    const started = conversation;
    if (!closed) held.set(interview._id, { conversation: started, hold });
    liveConversations.set(held.size);
    watch.changed();
    latest.set(interview._id, started);
    void started.closed
      .then(() => stores.liveHolds.end(interview._id, hold))
      .catch((err: unknown) => logger.warn({ err }, 'live hold not ended'))
      .finally(() => latest.get(interview._id) === started && latest.delete(interview._id));
    return started;
  }

  /**
   * The conversation of a socket just admitted. It takes the interview's next hold: a socket that lost it to
   * another at the same moment is taken over before it began; otherwise the conversation before it (in this
   * process or another) is taken over, and this one begins once that one's recording is closed.
   */
  async function holdThenBegin(interview: InterviewDoc, link: LiveLink): Promise<Conversation> {
    const hold = await stores.liveHolds.take(interview._id, randomUUID());
    if (hold === null) {
      link.close('taken_over');
      return NEVER_BEGAN;
    }
    const previous = latest.get(interview._id);
    // Whatever came before this socket (a drop, a reload, another tab), the interview's conversation goes on.
    if (previous || hold > 1 || (await stores.recordings.get(conversationRecordingId(interview._id))))
      liveReconnects.inc({ kind: 'socket' });
    previous?.end('taken_over');
    if (previous) await previous.closed;
    // Two sockets "at the same moment" (two tabs, a double click) are told apart here: the one that took the
    // later hold wins, and the earlier one, having begun nothing, is taken over before it says a word.
    const lost =
      !(await stores.liveHolds.previousEnded(interview._id, hold)) ||
      (await new Promise((resolve) => setTimeout(resolve, SAME_MOMENT_MS)), await stores.liveHolds.takenOver(interview._id, hold));
    if (lost) {
      await stores.liveHolds.end(interview._id, hold);
      link.close('taken_over');
      return NEVER_BEGAN;
    }
    return begin(interview, hold, link);
  }

  return {
    /** A ticket that opens the interview's socket once, within a minute, minted only after the candidate's consent. */
    async ticket(interview: InterviewDoc, at: Date): Promise<TicketOutcome> {
      const refused = refusal(interview, at);
      if (refused) return { refused };
      if (atCap(interview._id)) return { refused: 'busy' };
      const expires_at = new Date(at.getTime() + LIVE_LIMITS.ticketMs);
      return { ticket: await stores.signedTokens.liveTickets.mint(interview._id, expires_at), expires_at };
    },

    /**
     * Whether a socket with this ticket may open the interview's conversation now. Admitted, it counts against
     * the process's cap at once (a burst of sockets cannot all pass the look before any begins) until it begins
     * or `converse` is not called within 30 s.
     */
    async admits(interview: InterviewDoc, ticket: string, at: Date): Promise<LiveRefusal | 'invalid_ticket' | null> {
      const refused = refusal(interview, at);
      if (refused) return refused;
      if (atCap(interview._id)) return 'busy';
      const reserved = !admitted.has(interview._id);
      admitted.add(interview._id);
      const unreserve = () => reserved && admitted.delete(interview._id);
      try {
        if (!(await stores.signedTokens.liveTickets.use(interview._id, ticket, at))) return (unreserve(), 'invalid_ticket');
        if (slots.has(interview._id)) return null;
        // One of the workspace's slots, across the processes, held from here until the conversation ends.
        const workspace = await stores.workspaces.get(interview.workspace_id);
        const key = await stores.liveSlots.take(interview.workspace_id, interview._id, liveConversationsAtOnce(workspace), at);
        if (!key) return (unreserve(), 'workspace_busy');
        const slot = { key, users: 0 };
        slots.set(interview._id, slot);
        watch.changed();
        // A socket that never opens after its admission gives the slot and its place back.
        setTimeout(() => {
          admitted.delete(interview._id);
          if (slot.users === 0 && slots.get(interview._id) === slot) giveSlot(interview._id);
        }, 30_000).unref();
        return null;
      } catch (err) {
        unreserve();
        throw err;
      }
    },

    /** Opens the conversation on a socket just admitted (holdThenBegin). */
    async converse(interview: InterviewDoc, link: LiveLink): Promise<Conversation> {
      // Counted as admitted until it has begun (held) or given way: the cap holds while it waits for the last one.
      return holdThenBegin(interview, link).finally(() => admitted.delete(interview._id));
    },

    /** Conversations this process holds now (the `hiring_live_conversations` gauge). */
    count: () => held.size,
  };
}

export type LiveInterviews = ReturnType<typeof liveInterviews>;
