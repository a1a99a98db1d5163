/**
 * Who has the floor in a live conversation (docs/live-interviews.md#states), as one table of which event moves
 * it from which state to which, like the calls' (shared/calls/transitions.ts). The conversation
 * (operations/live-conversation.ts) moves only through it, and the page's `state` messages come from it.
 */
export const LIVE_STATES = ['opening', 'greeting', 'asking', 'listening', 'thinking', 'closing', 'ended'] as const;
export type LiveState = (typeof LIVE_STATES)[number];

export const LIVE_EVENTS = [
  /** The first words of the conversation are asked of the provider: the disclosure and the first question. */
  'greet',
  /** Another reply is asked of the provider: a question, the same again, a follow-up, or the answer that it is an AI. */
  'ask',
  /** The provider's reply is over (whole, cancelled or cut into). */
  'reply_done',
  /** The candidate began to speak (over the interviewer too: the page judges whether that stops it). */
  'speech_started',
  /** The candidate stopped speaking. */
  'speech_stopped',
  /** The candidate's turn is transcribed: it is kept, then a follow-up, the next question or a request follows. */
  'candidate_said',
  /** The open question closes (answered, done, out of time): its answer is saved and the next one opened. */
  'close',
  /** The conversation is over (finished, switched to writing, taken over, silent, refused, closed). */
  'end',
] as const;
export type LiveEvent = (typeof LIVE_EVENTS)[number];

/**
 * Where each event moves each state. An event a state does not name leaves it where it is: the provider's
 * events race each other and the candidate (a reply's end may come after the candidate began to answer), so a
 * late one changes nothing rather than failing the conversation. `ended` is never left.
 */
export const LIVE_TRANSITIONS: Readonly<Record<LiveState, Readonly<Partial<Record<LiveEvent, LiveState>>>>> = {
  // The provider's session is open; the first unanswered question is being found.
  opening: { greet: 'greeting', ask: 'asking', close: 'closing', end: 'ended' },
  // The interviewer says it is an AI and the conversation recorded, then asks the first question.
  greeting: { ask: 'asking', reply_done: 'listening', candidate_said: 'thinking', close: 'closing', end: 'ended' },
  // The interviewer speaks: the candidate may cut in (the page stops it, then the reply is done).
  asking: { ask: 'asking', reply_done: 'listening', candidate_said: 'thinking', close: 'closing', end: 'ended' },
  // The floor is the candidate's, whether or not they are speaking yet.
  listening: { ask: 'asking', speech_stopped: 'thinking', candidate_said: 'thinking', close: 'closing', end: 'ended' },
  // The candidate stopped: their words are transcribed, kept and answered (a follow-up, the next question, a request).
  thinking: { ask: 'asking', speech_started: 'listening', close: 'closing', end: 'ended' },
  // The answer is saved and the next question opened, or the interview finished.
  closing: { ask: 'asking', end: 'ended' },
  ended: {},
};

/** Where `event` moves a conversation in `from`. */
export const liveMove = (from: LiveState, event: LiveEvent): LiveState => LIVE_TRANSITIONS[from][event] ?? from;

/** What the page is told of each state (LiveMessage's `state`), or nothing while it is opening, closing or ended. */
export const PAGE_STATE: Readonly<Record<LiveState, 'asking' | 'listening' | 'thinking' | null>> = {
  opening: null,
  greeting: 'asking',
  asking: 'asking',
  listening: 'listening',
  thinking: 'thinking',
  closing: null,
  ended: null,
};

/**
 * One conversation's state, moved only by LIVE_TRANSITIONS, with what it holds of the open question. Each
 * reply asked (`greet`, `ask`) gets the next number: the page names it when it says how much of a reply it
 * played, so a cut-in lands on the reply the candidate was hearing, not on one queued behind it.
 */
export class ConversationState {
  state: LiveState = 'opening';
  /** Replies asked so far in this conversation: the latest one's number. */
  reply = 0;
  /** Follow-ups asked on the open question. */
  followUps = 0;
  /** The open question's words have begun to play: only then may the candidate say they are done with it. */
  heard = false;
  /** When the candidate's turn under way began to be spoken, or null while they are silent. */
  speakingSince: Date | null = null;

  /** `tell` gives the page each state it is told of: on every change, and with each new reply's number. */
  constructor(private readonly tell: (state: 'asking' | 'listening' | 'thinking', reply: number | undefined) => void) {}

  /** Moves by `event`; whether the state changed. */
  move(event: LiveEvent): boolean {
    const from = this.state;
    const to = liveMove(from, event);
    if (to === from && event !== 'ask' && event !== 'greet') return false;
    if (from === 'ended') return false;
    this.state = to;
    const replying = event === 'ask' || event === 'greet';
    if (replying) this.reply++;
    const page = PAGE_STATE[to];
    if (page) this.tell(page, replying ? this.reply : undefined);
    return to !== from;
  }

  get ended(): boolean {
    return this.state === 'ended';
  }

  /** A reply is asked of the provider or under way: another waits (a spoken or pressed repeat starts none). */
  get replying(): boolean {
    return this.state === 'greeting' || this.state === 'asking';
  }
}
