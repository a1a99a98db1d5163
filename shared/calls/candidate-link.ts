import type { WorkingHours } from './schema';
import { intoWorkingHours } from './working-hours';

/**
 * The candidate's own link to their call (docs/calls.md#the-candidates-link): `GET /call/{token}`, carried by
 * the call's WhatsApp messages. On it the candidate can have the call now, move it to a time of their own,
 * decline it, or answer its questions in writing, besides "Stop contacting me". These are its rules; the call's
 * workflow takes each choice through one Update, whose validator refuses what the call's state does not allow.
 */

export const CANDIDATE_LINK_RULES = {
  /** A call the candidate asks for now rings within this long (the workflow dials at once). */
  callNowWithinMs: 30_000,
  /** A time the candidate picks is at least this far ahead… */
  earliestAheadMs: 15 * 60_000,
  /** …and at most this far. */
  latestAheadMs: 14 * 86_400_000,
  /** How often one call may be moved by its candidate. */
  maxMoves: 3,
  /** The page offers times on this grid. */
  slotMs: 30 * 60_000,
  /** How long a call whose attempts are spent waits for the written answers (`form_fallback`). */
  formWaitMs: 72 * 3_600_000,
} as const;

/** The form's answers are kept as the report of attempt 0 (stores/call-reports.ts): no dial has that number. */
export const FORM_REPORT_ATTEMPT = 0;

/** A choice the candidate made on their link, as the call's workflow takes it (its Update). */
export const CANDIDATE_CHOICE_KINDS = ['call_now', 'move', 'decline', 'form'] as const;
export type CandidateChoice =
  | { kind: 'call_now' }
  | { kind: 'move'; at: number }
  | { kind: 'decline' }
  /** The answers themselves are kept with the call beforehand, never in the workflow's history. */
  | { kind: 'form' };

/**
 * The workflow's answer. `ringing_by`: the call rings by then (now, or a dial under way already). `at`: the
 * time the call moved to. `refused`: why not (`earliest`: the first moment it could ring, outside the window).
 */
export type CandidateChoiceAnswer =
  { taken: true; ringing_by?: number; at?: number } | { taken: false; refused: CandidateRefusal; earliest?: number };
export const CANDIDATE_REFUSALS = [
  'outside_calling_window',
  'under_way',
  'ended',
  'too_many_moves',
  'not_offered',
  'bad_time',
  /** The call's attempts are spent: it waits only for the written answers. */
  'form_only',
] as const;
export type CandidateRefusal = (typeof CANDIDATE_REFUSALS)[number];

/** Why a time cannot be picked: out of the allowed range, off the calling window, or fine (null). */
export function pickedTimeProblem(at: number, now: number, hours: WorkingHours | null, zones?: readonly string[]): string | null {
  if (!Number.isFinite(at)) return 'not a time';
  if (at < now + CANDIDATE_LINK_RULES.earliestAheadMs) return 'less than 15 minutes ahead';
  if (at > now + CANDIDATE_LINK_RULES.latestAheadMs) return 'more than 14 days ahead';
  if (intoWorkingHours(at, hours, zones) !== at) return 'outside the calling window';
  return null;
}

/** A window the call keeps to, with the zones its shifts are in (none: UTC). */
export interface ZonedHours {
  hours: WorkingHours | null | undefined;
  zones?: readonly string[];
}

/**
 * The first moment at or after `at` inside every window (the call's working hours, the workspace's calling
 * window): `at` itself when inside all; null when none comes within eight days.
 */
export function firstMomentInside(at: number, windows: readonly ZonedHours[]): number | null {
  let t = at;
  // Each window moves the moment on until all accept it (a few steps: each lands inside its own shifts).
  for (let step = 0; step < 20; step++) {
    const moved = windows.reduce((m, w) => intoWorkingHours(m, w.hours, w.zones), t);
    if (moved === t) return t;
    if (moved - at > 8 * 86_400_000) return null;
    t = moved;
  }
  return null;
}

/**
 * The times the page offers: on the half hour, from 15 minutes to 14 days ahead, inside every window given.
 * Outside the windows it jumps to their next moment rather than trying each half hour of the night.
 */
export function candidateSlots(now: number, windows: readonly ZonedHours[]): number[] {
  const { earliestAheadMs, latestAheadMs, slotMs } = CANDIDATE_LINK_RULES;
  const onGrid = (t: number) => Math.ceil(t / slotMs) * slotMs;
  const slots: number[] = [];
  for (let at = onGrid(now + earliestAheadMs); at <= now + latestAheadMs;) {
    const inside = firstMomentInside(at, windows);
    if (inside === null) break;
    if (inside === at) slots.push(at);
    at = inside === at ? at + slotMs : onGrid(inside);
  }
  return slots;
}

/** A moment as the candidate reads it, in their own zone: "Monday 30 November, 09:30". */
export function localTime(at: number | Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
}
