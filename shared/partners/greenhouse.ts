import { Type, type Static } from '@sinclair/typebox';
import { NonEmpty, Nullable } from '../schema-builders';
import type { PartnerResult, PartnerState } from './results';

/**
 * Greenhouse's Assessment Partner API as Greenhouse publishes it (grnhse/greenhouse-api-docs,
 * source/includes/assessment): the partner hosts `list_tests`, `send_test` and `test_status`, each called with
 * HTTP Basic (the key as the username, an empty password); errors are 401 (the key) and 404 (the resource).
 * The partner tells Greenhouse of a completed test with a bodiless PATCH of the `url` send_test gave, and
 * Greenhouse then asks `test_status`. Where the page's table and its JSON example disagree (the table lists the
 * candidate's fields at the top level; the example nests them under `candidate`), we follow the example and
 * take either (docs/ats/greenhouse.md).
 */

/** One test of the `list_tests` answer (an array of them). */
export const GreenhouseTest = Type.Object({ partner_test_id: Type.String(), partner_test_name: Type.String() });
export const GreenhouseTests = Type.Array(GreenhouseTest);

const CandidateFields = {
  first_name: NonEmpty({ maxLength: 200 }),
  last_name: NonEmpty({ maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone_number: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  resume_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  greenhouse_profile_url: Type.String({ minLength: 1, maxLength: 2000 }),
};

/** `POST send_test`: the test, the candidate, and the URL to PATCH once the test is complete. */
export const GreenhouseSendTest = Type.Object({
  partner_test_id: NonEmpty({ maxLength: 100 }),
  candidate: Type.Optional(Type.Object(CandidateFields)),
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  // The page's table lists them at the top level.
  first_name: Type.Optional(CandidateFields.first_name),
  last_name: Type.Optional(CandidateFields.last_name),
  email: Type.Optional(CandidateFields.email),
  phone_number: CandidateFields.phone_number,
  resume_url: CandidateFields.resume_url,
  greenhouse_profile_url: Type.Optional(CandidateFields.greenhouse_profile_url),
});
export type GreenhouseSendTest = Static<typeof GreenhouseSendTest>;
export const GreenhouseSendTestAnswer = Type.Object({ partner_interview_id: Type.String() });

/** `GET test_status?partner_interview_id=…`. */
export const GreenhouseTestStatus = Type.Object({
  partner_status: Type.String({ description: '`complete` once the result is there; else where the test stands.' }),
  partner_profile_url: Nullable(Type.String()),
  partner_score: Nullable(Type.Number()),
  metadata: Nullable(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
});
export type GreenhouseTestStatus = Static<typeof GreenhouseTestStatus>;

/** The errors the contract names, with a message: 401 and 404; a candidate the test cannot take is a 400. */
export const GreenhouseError = Type.Object({ message: Type.String() });

/** The candidate of a send_test, nested or not. */
export function greenhouseCandidate(body: GreenhouseSendTest) {
  const c: Partial<NonNullable<GreenhouseSendTest['candidate']>> = body.candidate ?? body;
  if (!c.first_name || !c.last_name || !c.email || !c.greenhouse_profile_url) return null;
  return {
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone_number: c.phone_number ?? null,
    greenhouse_profile_url: c.greenhouse_profile_url,
  };
}

/** The application a send_test is for: Greenhouse's profile URL names it (`?application_id=`), else the person. */
export function greenhouseApplicationOf(profileUrl: string): string | null {
  try {
    const url = new URL(profileUrl);
    return url.searchParams.get('application_id') ?? /\/people\/(\d+)/.exec(url.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

const GREENHOUSE_STATUS: Record<PartnerState, string> = {
  sent: 'sent',
  in_progress: 'in_progress',
  completed: 'complete',
  expired: 'expired',
  cancelled: 'cancelled',
  declined: 'declined',
  failed: 'failed',
};

/** A result as test_status says it: `complete` with the score and the profile URL; metadata flat and primitive. */
export function greenhouseStatus(r: PartnerResult, profileUrl: string): GreenhouseTestStatus {
  const metadata: Record<string, string | number | boolean> = {};
  if (r.score) metadata['Score range'] = `${r.score.minimum} to ${r.score.maximum}`;
  if (r.recommendation) metadata.Recommendation = r.recommendation;
  if (r.summary) metadata.Summary = r.summary;
  for (const [k, v] of Object.entries(r.values ?? {}))
    metadata[k] = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : JSON.stringify(v);
  return {
    partner_status: GREENHOUSE_STATUS[r.state],
    partner_profile_url: profileUrl,
    partner_score: r.score?.value ?? null,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
  };
}
