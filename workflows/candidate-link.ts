import { condition } from '@temporalio/workflow';
import { local } from './call-activities';
import type { CallStatus, WorkingHours } from '../shared/calls/schema';
import type { CallResume, ResumeStage } from './call-contract';
import { callEnded } from '../shared/calls/transitions';
import { CANDIDATE_LINK_RULES, pickedTimeProblem, type CandidateChoice, type CandidateChoiceAnswer } from '../shared/calls/candidate-link';

const UNDER_WAY: ReadonlySet<CallStatus> = new Set(['in_progress', 'cancelling']);

/** What the call's state (call-state.ts) lends its candidate's link: where the call stands, and how it moves. */
export interface LinkedCall {
  readonly callId: string;
  readonly input: { workingHours: WorkingHours | null; hoursZones?: string[] };
  readonly progress: { status: CallStatus; nextAttemptAt: number | null };
  /** The call waits for a dial time now: a move or "call me now" may change that wait. */
  readonly waitingForDialTime: boolean;
  /** Set to end the call's waits; the call's cancel then ends it as `ending` says. */
  cancelled: boolean;
  /** When the run hands over: a wait past it continues as new (call-runs.ts). */
  readonly deadline: number;
  show(status: CallStatus): void;
  continueAsNew(stage: ResumeStage, until: number): Promise<never>;
}

/**
 * The candidate's link to their call (docs/call-links.md), as the call's workflow holds it: the candidateChoice
 * Update's validator and handler, and what they leave for the call's waits (call-state.ts) to act on.
 */
export class CandidateLink {
  /** "Call me now" was asked during the wait for a dial: the wait ends at once. */
  callNowAsked = false;
  /** The candidate's moves of the next dial, and the time of the last, which the wait under way takes. */
  moves = 0;
  chosenAt: number | null = null;
  /** The candidate used their link: the pre-call message, which carries it, has nothing left to say. */
  acted = false;
  /** How the candidate ended the call on their link: it ends as that, not as cancelled. */
  ending: 'declined' | 'form' | null = null;
  /** The call offered its written form on its own (form_fallback), with its fallback message. */
  formOffered = false;
  /** Its attempts spent, the call waits only for the written answers. */
  private awaitingForm = false;

  constructor(private readonly call: LinkedCall) {}

  /** What the next run of the call keeps of the link (call-runs.ts). */
  saved(): CallResume['link'] {
    const { moves, chosenAt, acted, formOffered } = this;
    return { moves, chosenAt, acted, formOffered };
  }

  restore(saved: CallResume['link']): void {
    ({ moves: this.moves, chosenAt: this.chosenAt, acted: this.acted, formOffered: this.formOffered } = saved);
  }

  /**
   * candidateChoice's validator: refuses, before it reaches the history, what the call's state does not allow.
   * A call that has ended takes nothing; during an attempt only "call me now" is taken (it is ringing: one
   * dial); a move needs the call waiting for a dial time, fewer than CANDIDATE_LINK_RULES.maxMoves before it,
   * and a time the rules allow.
   */
  allowed = (c: CandidateChoice): void => {
    const { call } = this;
    if (callEnded(call.progress.status) || call.cancelled) throw new Error('ended');
    if (this.awaitingForm && (c.kind === 'call_now' || c.kind === 'move')) throw new Error('form_only');
    if (c.kind === 'call_now') return;
    if (UNDER_WAY.has(call.progress.status)) throw new Error('under_way');
    if (c.kind !== 'move') return;
    if (!call.waitingForDialTime) throw new Error('under_way');
    if (this.moves >= CANDIDATE_LINK_RULES.maxMoves) throw new Error('too_many_moves');
    if (pickedTimeProblem(c.at, Date.now(), call.input.workingHours, call.input.hoursZones)) throw new Error('bad_time');
  };

  /**
   * candidateChoice: the candidate's choice on their link. "Call me now" wakes the wait for the next dial when
   * the calling window allows a call now (else it answers the first moment it does); a move re-targets that
   * wait, recorded with `call.rescheduled`; "not interested" and the written form end the call as they say.
   */
  chose = async (c: CandidateChoice): Promise<CandidateChoiceAnswer> => {
    const { call } = this;
    this.acted = true;
    const ringingBy = () => Date.now() + CANDIDATE_LINK_RULES.callNowWithinMs;
    if (c.kind === 'decline' || c.kind === 'form') {
      this.ending = c.kind === 'decline' ? 'declined' : 'form';
      call.cancelled = true;
      return { taken: true };
    }
    if (c.kind === 'move') {
      this.moves++;
      this.chosenAt = c.at;
      call.show(await local.rescheduleCall(call.callId, c.at, Date.now()));
      call.progress.nextAttemptAt = c.at;
      return { taken: true, at: c.at };
    }
    if (this.awaitingForm) return { taken: false, refused: 'form_only' };
    // Due, or dialling already: it rings without another dial.
    if (!call.waitingForDialTime) return { taken: true, ringing_by: ringingBy() };
    const window = await local.candidateDialWindow(call.callId, Date.now());
    if (!window.go) return { taken: false, refused: 'outside_calling_window', ...(window.at !== null ? { earliest: window.at } : {}) };
    // The wait may have ended while the window was asked: only a wait still under way is woken.
    if (call.waitingForDialTime) this.callNowAsked = true;
    return { taken: true, ringing_by: ringingBy() };
  };

  /**
   * Its attempts spent, waits until `until` for the candidate's written answers (form_fallback), shown waiting
   * for them; true when they came, or the candidate declined, or the call was cancelled meanwhile.
   */
  async waitForForm(until: number): Promise<boolean> {
    const { call } = this;
    call.show(await local.awaitWrittenAnswers(call.callId, until));
    this.awaitingForm = true;
    await condition(() => call.cancelled, Math.min(until, call.deadline) - Date.now());
    // The run's deadline came first: the next run waits out the rest.
    if (!call.cancelled && Date.now() < until) await call.continueAsNew('form', until);
    this.awaitingForm = false;
    return call.cancelled;
  }

  /** The call's end as the candidate chose it, written; false when they did not end it. */
  async ended(): Promise<boolean> {
    const { call } = this;
    if (this.ending === null) return false;
    call.show(await (this.ending === 'declined' ? local.finishCall(call.callId, 'declined', null) : local.completeByForm(call.callId)));
    return true;
  }
}
