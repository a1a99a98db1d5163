import { Type, type Static } from '@sinclair/typebox';
import { Enum, NonEmpty, Nullable, Strict, NOT_BLANK, ONE_LINE } from '../schema-builders';
import { InviteRequest } from '../interviews/schema';
import { CallInitiateRequest } from '../calls/schema';

/**
 * The ATSs that run our interviews and phone screens as a stage of their hiring plan (docs/ats/): each calls
 * its own door of ours (`/partners/<ats>/…`) with a key a workspace admin made for it, and takes the results
 * back in its own terms. A third ATS is one more name here, one more door and one more push adapter.
 */
export const PARTNER_ATS = ['greenhouse', 'ashby'] as const;
export type PartnerAts = (typeof PARTNER_ATS)[number];
export const PartnerAtsParam = Enum(PARTNER_ATS, { description: 'The ATS: `greenhouse` or `ashby`.' });

/** What a test runs: an AI interview (written, recorded or live, as the interview terms say) or an AI phone screen. */
export const PARTNER_TEST_KINDS = ['interview', 'phone_screen'] as const;
export type PartnerTestKind = (typeof PARTNER_TEST_KINDS)[number];

/** An interview test's terms: what interview/invite takes, but for the job and the candidates, which the ATS gives. */
export const InterviewTerms = Type.Omit(InviteRequest, ['ats_job_id', 'candidates'], { additionalProperties: false });
export type InterviewTerms = Static<typeof InterviewTerms>;
/** A phone screen's terms: what call/initiate takes, but for the job, the candidates and a fixed time. */
export const PhoneScreenTerms = Type.Omit(CallInitiateRequest, ['ats_job_id', 'candidates', 'schedule_at'], {
  additionalProperties: false,
});
export type PhoneScreenTerms = Static<typeof PhoneScreenTerms>;

const NAME = NonEmpty({ maxLength: 200, ...ONE_LINE });
const DESCRIPTION = Type.String({ maxLength: 1000 });

/** `POST /partner-tests`: a named template of what the ATS may send a candidate to. */
export const PartnerTestCreate = Strict({
  name: NAME,
  description: Type.Optional(DESCRIPTION),
  kind: Enum(PARTNER_TEST_KINDS),
  /** Required for `interview`, refused for `phone_screen`. */
  interview: Type.Optional(InterviewTerms),
  /** Required for `phone_screen`, refused for `interview`. */
  phone_screen: Type.Optional(PhoneScreenTerms),
});
export type PartnerTestCreate = Static<typeof PartnerTestCreate>;

/** `PATCH /partner-tests/{id}`: a new name, description or terms; the kind stays. */
export const PartnerTestPatch = Strict(
  {
    name: Type.Optional(NAME),
    description: Type.Optional(DESCRIPTION),
    interview: Type.Optional(InterviewTerms),
    phone_screen: Type.Optional(PhoneScreenTerms),
  },
  { minProperties: 1 },
);
export type PartnerTestPatch = Static<typeof PartnerTestPatch>;

export const PartnerTest = Type.Object({
  id: Type.String({ description: 'The id the ATS sends back: Greenhouse `partner_test_id`, Ashby `assessment_type_id`.' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  kind: Enum(PARTNER_TEST_KINDS),
  interview: Nullable(InterviewTerms),
  phone_screen: Nullable(PhoneScreenTerms),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type PartnerTest = Static<typeof PartnerTest>;

/** Why a test's body does not hold its kind's terms; null when it does. */
export function termsProblem(
  kind: PartnerTestKind,
  t: { interview?: unknown; phone_screen?: unknown },
): { path: string; message: string } | null {
  if (kind === 'interview' && t.interview === undefined) return { path: 'interview', message: 'is required for an interview test' };
  if (kind === 'interview' && t.phone_screen !== undefined) return { path: 'phone_screen', message: 'is only for a phone_screen test' };
  if (kind === 'phone_screen' && t.phone_screen === undefined)
    return { path: 'phone_screen', message: 'is required for a phone_screen test' };
  if (kind === 'phone_screen' && t.interview !== undefined) return { path: 'interview', message: 'is only for an interview test' };
  return null;
}

/** `POST /partners/{ats}/credentials`: a new key; the earlier ones stay valid for `replace_after_hours`, or until revoked. */
export const PartnerCredentialCreate = Strict({
  replace_after_hours: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 720,
      description: "Rotation: the workspace's earlier keys for this ATS stop working this many hours from now (0: at once).",
    }),
  ),
});
export type PartnerCredentialCreate = Static<typeof PartnerCredentialCreate>;

export const PartnerCredential = Type.Object({
  id: Type.String(),
  ats: Enum(PARTNER_ATS),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart; the key itself is shown once.' }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Nullable(Type.String({ format: 'date-time' }), 'Null: until revoked.'),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
});
export type PartnerCredential = Static<typeof PartnerCredential>;

/** `PUT /partners/ashby/api-key`: the customer's Ashby API key we report results with; write-only. */
export const AshbyApiKeyBody = Strict({ api_key: NonEmpty({ maxLength: 500, ...NOT_BLANK }) });
export type AshbyApiKeyBody = Static<typeof AshbyApiKeyBody>;
/** Whether an Ashby API key is kept, and its last four characters to tell keys apart: never the key. */
export const AshbyApiKeyHint = Type.Object({
  set: Type.Boolean(),
  last4: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type AshbyApiKeyHint = Static<typeof AshbyApiKeyHint>;
