import type { AttemptResult } from './retry';
/** A candidate's call-back as the API tells it to the call's workflow (its Update, workflows/calls.ts), and its answer. */

export interface CallBack {
  /** The voice provider's id of the inbound call. */
  providerCallId: string;
  /**
   * Epoch ms after which the caller has been answered without it: a signal the workflow takes later (its
   * worker was down) is refused, so no attempt waits for a call that went elsewhere.
   */
  answerBy: number;
}

/** The attempt a call-back became, or its refusal (the call was not waiting, or had one under way). */
export type CallBackAnswer = { attempt: number } | { refused: true };

/** Days after a missed dial during which the candidate may call back (workspace setting `call_back_days`). */
export const DEFAULT_CALL_BACK_DAYS = 7;
/** Call-backs one call takes in any 24 hours, at most (workspace setting `call_backs_per_day`). */
export const DEFAULT_CALL_BACKS_PER_DAY = 3;
const DAY_MS = 86_400_000;

/** What a call's attempts say about a call-back now, as the stored call keeps them. */
interface AttemptLike {
  direction?: 'outbound' | 'inbound';
  started_at: Date;
  ended_at: Date | null;
  outcome: 'completed' | 'failed' | null;
}

/**
 * Why a call-back may not be taken for a call now, or null when it may: only a call that was dialled and not
 * reached (its last dial ended `failed`) within `days`, with fewer than `perDay` call-backs in the last 24
 * hours and none under way. A call never dialled (waiting for its schedule or its first window) has nothing
 * the candidate could be returning.
 */
export function callBackRefusal(
  attempts: readonly AttemptLike[],
  now: number,
  limits: { days: number; perDay: number },
): 'never_dialled' | 'not_missed' | 'too_old' | 'too_many' | 'under_way' | null {
  if (attempts.some((a) => a.ended_at === null)) return 'under_way';
  const dials = attempts.filter((a) => (a.direction ?? 'outbound') === 'outbound');
  const last = dials.at(-1);
  if (!last) return 'never_dialled';
  if (last.outcome !== 'failed') return 'not_missed';
  if (limits.days <= 0 || now - last.ended_at!.getTime() > limits.days * DAY_MS) return 'too_old';
  const recent = attempts.filter((a) => a.direction === 'inbound' && now - a.started_at.getTime() < DAY_MS);
  return recent.length >= limits.perDay ? 'too_many' : null;
}

/**
 * An inbound attempt completes its call only when the caller was confirmed as the candidate by the identity
 * tool on that very call (`confirmed`: stores/call-reports.ts keeps which inbound attempt it confirmed) and the
 * screening happened: its report carries at least one of the call's declared variables with a value, or the
 * provider's analysis of the conversation says the caller was screened (`screened`: Vapi's success evaluation;
 * a call that declares no variables has only that). Without the confirmation nothing the report carries
 * counts: the gate's assistant carries the call's extraction, so a provider extracts from the gate's own
 * transcript (a stranger's `{"has_license": false}`). A call-back that ended early (however it ended: the
 * provider's words stay in `ended_reason`), or with neither, failed as `call_back_incomplete`. `false` and `0`
 * are answers; an empty string, a blank one and an empty list are not.
 */
export function callBackResult(
  reported: AttemptResult,
  extracted: Record<string, unknown> | null | undefined,
  declared: ReadonlyArray<{ label: string }>,
  screened: boolean | undefined,
  confirmed: boolean,
): AttemptResult {
  if (reported !== 'completed' || !confirmed) return 'call_back_incomplete';
  const filled = declared.some(({ label }) => isFilled(extracted?.[label]));
  return filled || screened === true ? 'completed' : 'call_back_incomplete';
}

function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The tool a call-back's assistant calls with the caller's full name, before it knows anything of the call. */
export const IDENTITY_TOOL = 'confirm_identity';

/**
 * Names one inbound call's gate judges, at most: a caller cannot try a list. Each name the identity tool is
 * called with takes one, whether or not it is the candidate's, one at a time however many one message carries.
 */
export const IDENTITY_TRIES = 2;

/** Words a name may have: a list of names said at once ("John Mary Smith Jones …") is not one name. */
export const MAX_NAME_WORDS = 5;

/** A name's words as compared: lower case, without accents or punctuation. */
function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Edits (insertions, deletions, substitutions) from `a` to `b`, up to `max + 1`. */
function editsWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] <= max;
}

/**
 * Whether the name a caller gave is the candidate's: their first and last words each among the given words,
 * as a transcriber may write them (one letter off in a word of five letters or more). A first name alone, or
 * a last name alone, is not enough; nor is a name of more than MAX_NAME_WORDS words (or the candidate's own
 * count, when longer), so many names said at once never pass for one.
 */
export function namesMatch(given: string, stored: string): boolean {
  const words = nameWords(given);
  const wanted = nameWords(stored);
  if (wanted.length === 0 || words.length === 0 || words.length > Math.max(MAX_NAME_WORDS, wanted.length)) return false;
  const ends = wanted.length === 1 ? wanted : [wanted[0], wanted[wanted.length - 1]];
  if (wanted.length > 1 && words.length < 2) return false;
  return ends.every((w) => words.some((g) => g === w || (w.length >= 5 && editsWithin(g, w, 1))));
}
