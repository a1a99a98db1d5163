import { DateTime } from 'luxon';
import { callIdOfLink, callWindows, linkMatches, zonesOfCall, type CallDoc } from '../infra/documents/calls';
import { companyOf } from '../infra/documents/projects';
import { coerceExtracted } from '../shared/calls/extracted-values';
import {
  CANDIDATE_LINK_RULES,
  FORM_REPORT_ATTEMPT,
  candidateSlots,
  type CandidateChoice,
  type CandidateChoiceAnswer,
} from '../shared/calls/candidate-link';
import { callReportId } from '../infra/documents/call-reports';
import { CANDIDATE_CHOICES, FINAL_CALL_STATUSES, type CandidateChoiceKind, type ExtractVariable } from '../shared/calls/schema';
import type { OperationDeps } from './deps';
import type { CandidateOptOuts } from './candidate-opt-outs';
import { callLinkChoices } from '../infra/metrics';

/** The offer each choice of the workflow's Update takes up. */
const OFFERED_AS: Record<CandidateChoice['kind'], CandidateChoiceKind> = {
  call_now: 'call_now',
  move: 'pick_time',
  decline: 'decline',
  form: 'form',
};

/** How long the page waits for the call's workflow to answer a choice before it says the choice may still go through. */
const ANSWER_WITHIN_MS = 10_000;

/** What the candidate's page shows of their call: the job, where the call stands, and what they may choose now. */
export interface CallLinkView {
  call: CallDoc;
  company: string;
  jobTitle: string;
  /** The candidate's zone, which the page's times are shown in. */
  zone: string;
  /** The choices the call offers (`candidate_choices`), of which those the call's state allows now. */
  offered: readonly CandidateChoiceKind[];
  open: boolean;
  /** Times the page offers for `pick_time`, and the moves left. */
  slots: number[];
  movesLeft: number;
  /** The questions of the written form: the call's extract variables. */
  questions: ExtractVariable[];
}

/**
 * The page's answer to a choice: the workflow's, or `unanswered` when it did not answer in time (the page says
 * the choice may still go through, and the call's page will show whether it did).
 */
export type LinkChoiceOutcome = CandidateChoiceAnswer | { unanswered: true } | { invalid: string[] };

/**
 * The candidate's own link to their call (docs/calls.md): what it shows, and each choice on it taken by the
 * call's workflow through one Update (shared/calls/candidate-link.ts), whose rules decide. The page
 * (web/calls/routes.tsx) is only a door onto these.
 */
export function callCandidateLinks(
  {
    stores,
    workflows,
    now,
    answerWithinMs = ANSWER_WITHIN_MS,
  }: Pick<OperationDeps, 'stores' | 'workflows'> & {
    now(): Date;
    answerWithinMs?: number;
  },
  optOuts: CandidateOptOuts,
) {
  /**
   * What the call offers now: the choices it was made with (`candidate_choices`), with the form added once
   * form_fallback offers it, and only the form and a decline once its attempts are spent.
   */
  async function offers(call: CallDoc) {
    const [project, workspace] = await Promise.all([stores.projects.get(call.project_id), stores.workspaces.get(call.workspace_id)]);
    // Its attempts spent, the call waits only for the written answers (form_fallback).
    const formOnly = call.status === 'scheduled' && call.form_until != null;
    const given = call.candidate_choices ?? CANDIDATE_CHOICES;
    const formOffered = formOnly || (call.form_fallback === 'after_first_failure' && call.attempts.some((a) => a.outcome === 'failed'));
    const choices: CandidateChoiceKind[] = formOnly
      ? (['form', 'decline'] as const).filter((c) => c === 'form' || given.includes(c))
      : [...given, ...(formOffered && !given.includes('form') ? (['form'] as const) : [])];
    // A form needs questions: a call that extracts nothing has none to ask.
    const offered = choices.filter((c) => c !== 'form' || call.extract_variables.length > 0);
    return { project, workspace, formOnly, offered, zones: zonesOfCall(call, workspace) };
  }

  /**
   * Asks the call's workflow, unless the call does not offer the choice (a form posted from elsewhere), and
   * counts what came of it (`hiring_call_link_choices_total`).
   */
  async function ask(call: CallDoc, choice: CandidateChoice): Promise<LinkChoiceOutcome> {
    const offered = (await offers(call)).offered.includes(OFFERED_AS[choice.kind]);
    if (!offered) return counted(choice.kind, { taken: false, refused: 'not_offered' });
    return counted(choice.kind, (await workflows.candidateChoice(call._id, choice, answerWithinMs).answer) ?? { unanswered: true });
  }

  return {
    /**
     * The call a link opens: null for a token that is not one of ours, and for an erased candidate's call (their
     * link shows nothing of them).
     */
    async open(token: string): Promise<CallDoc | null> {
      const id = callIdOfLink(token);
      const call = id ? await stores.calls.get(id) : null;
      return call && !call.erased_at && linkMatches(call, token) ? call : null;
    },

    /** What the page shows of `call` at this moment. */
    async view(call: CallDoc): Promise<CallLinkView> {
      const { project, workspace, formOnly, offered: choices, zones } = await offers(call);
      const open = !FINAL_CALL_STATUSES.includes(call.status);
      const movesLeft = Math.max(0, CANDIDATE_LINK_RULES.maxMoves - (call.reschedules?.length ?? 0));
      const waiting = call.status === 'scheduled' && !formOnly;
      return {
        call,
        company: companyOf(project, workspace) ?? 'the company',
        jobTitle: project?.job_title ?? project?.job?.title ?? project?.name ?? 'the role',
        zone: zones[0] ?? 'UTC',
        open,
        offered: open ? choices.filter((c) => c !== 'pick_time' || (waiting && movesLeft > 0)) : [],
        slots: open && waiting && choices.includes('pick_time') ? candidateSlots(now().getTime(), callWindows(call, workspace)) : [],
        movesLeft,
        questions: call.extract_variables,
      };
    },

    callNow: (call: CallDoc) => ask(call, { kind: 'call_now' }),
    move: (call: CallDoc, at: number) => ask(call, { kind: 'move', at }),
    decline: (call: CallDoc) => ask(call, { kind: 'decline' }),

    /**
     * The candidate's written answers: every question answered, each checked against its extract variable as a
     * provider's value is (a missing answer, or one of another type, is the candidate's to correct, and nothing
     * is kept), then kept with the call (never in the workflow's history), and the call completed by them. A
     * refused form leaves nothing behind.
     */
    async answerInWriting(call: CallDoc, fields: Record<string, unknown>): Promise<LinkChoiceOutcome> {
      const { offered, zones } = await offers(call);
      if (!offered.includes('form')) return counted('form', { taken: false, refused: 'not_offered' });
      const zone = zones[0] ?? 'UTC';
      const given: Record<string, unknown> = {};
      const invalid: string[] = [];
      for (const v of call.extract_variables) {
        const text = fields[v.label];
        if (typeof text !== 'string' || text.trim() === '') {
          invalid.push(`Answer "${v.description}".`);
          continue;
        }
        const value = asAnswered(v, text.trim().slice(0, 2_000), zone);
        if (coerceExtracted([v], { [v.label]: value }).notes.length > 0) invalid.push(`Check your answer to "${v.description}".`);
        else given[v.label] = value;
      }
      if (invalid.length > 0) return counted('form', { invalid });
      const form = {
        _id: callReportId(call._id, FORM_REPORT_ATTEMPT),
        call_id: call._id,
        attempt: FORM_REPORT_ATTEMPT,
        result: 'completed' as const,
        provider_call_id: null,
        ended_reason: 'candidate-answered-form',
        recording_url: null,
        transcript: null,
        extracted_json: JSON.stringify(given),
        received_at: now(),
      };
      const kept = await stores.callReports.keep(form);
      const asked = workflows.candidateChoice(call._id, { kind: 'form' }, answerWithinMs);
      // Refused: the answers go, unless an earlier form of the call is what was kept. A workflow that answers
      // after the page stopped waiting may still take them (it reads them as it completes the call), so they
      // stay until it has answered; one that cannot be asked leaves them, as they may still be taken.
      const refused = (a: CandidateChoiceAnswer | null) => kept === 'written' && a !== null && !a.taken;
      const answer = await asked.answer;
      // A forget that fails leaves them to the call's reports' own end (an erasure, or the call's retention).
      if (answer === null)
        void asked.settled.then((late) => (refused(late) ? stores.callReports.forget(form) : undefined)).catch(() => undefined);
      else if (refused(answer)) await stores.callReports.forget(form);
      return counted('form', answer ?? { unanswered: true });
    },

    /** "Stop contacting me": every channel refused to the candidate; their waiting calls stop. */
    stop: (call: CallDoc) => optOuts.optOut(call, 'call_page'),
  };
}

export type CallCandidateLinks = ReturnType<typeof callCandidateLinks>;

/** A form field's text as its variable's type reads it: a list one item a line (or comma), a local date-time in the candidate's zone. */
function asAnswered(v: ExtractVariable, text: string, zone: string): unknown {
  if (v.type === 'array')
    return text
      .split(/[\n,]/)
      .map((x) => x.trim())
      .filter(Boolean);
  if (v.type === 'datetime') return DateTime.fromISO(text, { zone }).toISO() ?? text;
  return text;
}

/** Counts a choice's outcome: taken, a refusal's reason, a form to correct, or no answer in time. */
function counted(choice: CandidateChoice['kind'], outcome: LinkChoiceOutcome): LinkChoiceOutcome {
  const label = 'unanswered' in outcome ? 'unanswered' : 'invalid' in outcome ? 'invalid' : outcome.taken ? 'taken' : outcome.refused;
  callLinkChoices.inc({ choice, outcome: label });
  return outcome;
}
