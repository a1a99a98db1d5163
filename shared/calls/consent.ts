import { Type, type Static } from '@sinclair/typebox';
import { Enum, NOT_BLANK, NonEmpty, Strict } from '../schema-builders';

/**
 * A candidate's consent to an AI voice call, as the ATS captured it. An AI voice is an "artificial voice" under
 * the US TCPA (the FCC's ruling of February 2024): a call to a mobile needs the person's prior express consent
 * (written, for telemarketing), and the caller must be able to show it. The service keeps what the ATS says,
 * shows it on the call, and erases it with the person (docs/contact-rules.md); a workspace may require it
 * (`voice_consent_required`).
 */
export const CONSENT_BASES = ['prior_express', 'prior_express_written'] as const;
export type ConsentBasis = (typeof CONSENT_BASES)[number];

/** How far ahead of the service's clock a `captured_at` may be (the ATS's clock may run ahead a little). */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

export const VoiceConsent = Strict(
  {
    basis: Enum(CONSENT_BASES, {
      description: '`prior_express`: the candidate gave the number for this purpose; `prior_express_written`: a signed written agreement.',
      errorMessage: `must be one of ${CONSENT_BASES.join(', ')}`,
    }),
    captured_at: Type.String({ format: 'date-time', description: 'When the candidate gave it; not in the future.' }),
    source: NonEmpty({
      maxLength: 200,
      ...NOT_BLANK,
      description: 'Where it was given, so it can be shown: a form, a page, a document id of the ATS.',
    }),
  },
  { description: "The candidate's consent to AI voice calls, as captured by the ATS." },
);
export type VoiceConsent = Static<typeof VoiceConsent>;
