import { CALL_STATUSES, FINAL_CALL_STATUSES } from '../../shared/calls/schema';
import { CALL_TRANSITIONS, callMayMove } from '../../shared/calls/transitions';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import { INTERVIEW_TRANSITIONS, interviewMayMove, interviewStageMayMove } from '../../shared/interviews/transitions';

/** The transition tables the stores check every change against, and the workflows their search attributes. */
describe('transition tables', () => {
  it('name every status, and only statuses, of calls and interviews', () => {
    expect(Object.keys(CALL_TRANSITIONS).sort()).toEqual([...CALL_STATUSES].sort());
    for (const to of Object.values(CALL_TRANSITIONS).flat()) expect(CALL_STATUSES).toContain(to);
    expect(Object.keys(INTERVIEW_TRANSITIONS).sort()).toEqual([...INTERVIEW_STATUSES].sort());
    for (const to of Object.values(INTERVIEW_TRANSITIONS).flat()) expect(INTERVIEW_STATUSES).toContain(to);
  });

  it("leave a call's final statuses, and only those, with nowhere to go", () => {
    const ends = CALL_STATUSES.filter((s) => CALL_TRANSITIONS[s].length === 0);
    expect([...ends].sort()).toEqual([...FINAL_CALL_STATUSES].sort());
    for (const end of ends) for (const to of CALL_STATUSES) expect(callMayMove(end, to)).toBe(to === end);
  });

  it("allow a call's life and refuse its reversals", () => {
    expect(callMayMove('scheduled', 'in_progress')).toBe(true);
    expect(callMayMove('in_progress', 'cancelling')).toBe(true);
    expect(callMayMove('cancelling', 'completed')).toBe(true);
    expect(callMayMove('cancelling', 'scheduled')).toBe(false);
    expect(callMayMove('scheduled', 'cancelling')).toBe(false);
  });

  it("allow an interview's life, a resend reopening it, and refuse the rest", () => {
    expect(interviewMayMove('queued', 'invited')).toBe(true);
    expect(interviewMayMove('expired', 'started')).toBe(true);
    expect(interviewMayMove('invited', 'completed')).toBe(false);
    expect(interviewMayMove('completed', 'started')).toBe(false);
    expect(interviewMayMove('failed', 'invited')).toBe(false);
  });

  it("let the invitation's workflow show its own steps and any status the interview can reach", () => {
    expect(interviewStageMayMove('queued', 'preparing')).toBe(true);
    expect(interviewStageMayMove('emailing', 'failed')).toBe(true);
    // A candidate who started and finished between two of the workflow's reads.
    expect(interviewStageMayMove('invited', 'completed')).toBe(true);
    expect(interviewStageMayMove('completed', 'assessing')).toBe(true);
    expect(interviewStageMayMove('assessing', 'completed')).toBe(true);
    expect(interviewStageMayMove('preparing', 'invited')).toBe(false);
    expect(interviewStageMayMove('completed', 'invited')).toBe(false);
    expect(interviewStageMayMove('invited', 'assessing')).toBe(false);
  });
});
