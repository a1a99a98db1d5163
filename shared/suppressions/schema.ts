import { Type, type Static } from '@sinclair/typebox';
import { E164_PATTERN } from '../formats';
import { Enum, NonEmpty, Nullable, Strict } from '../schema-builders';
import type { Issue } from '../errors';

/** The suppression list (docs/contact-rules.md): who must not be contacted again, on which channels, and why. */

export const SUPPRESSION_CHANNELS = ['voice', 'whatsapp', 'email'] as const;
export type SuppressionChannel = (typeof SUPPRESSION_CHANNELS)[number];

/**
 * Where an entry came from: the API; a WhatsApp reply such as STOP; an email's unsubscribe link; the interview
 * page's "Don't contact me again"; an erasure, which keeps only hashes.
 */
export const SUPPRESSION_SOURCES = ['api', 'whatsapp', 'email_link', 'interview_page', 'call_page', 'erasure'] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

const Phone = Type.String({
  pattern: E164_PATTERN,
  description: 'An E.164 phone number.',
  errorMessage: 'must be an E.164 phone number such as +14155550123',
});
const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'Compared case-insensitively.',
  errorMessage: 'must be an email address',
});

export const SuppressionCreateRequest = Strict(
  {
    phone: Type.Optional(Phone),
    email: Type.Optional(Email),
    channels: Type.Optional(
      Type.Array(Enum(SUPPRESSION_CHANNELS), {
        minItems: 1,
        uniqueItems: true,
        description: 'The channels not to use. All three when absent.',
        errorMessage: 'must be a non-empty list of distinct channels: voice, whatsapp, email',
      }),
    ),
    reason: Type.Optional(NonEmpty({ maxLength: 500, description: 'Why, in the caller’s words; kept as given.' })),
  },
  { description: 'At least one of phone and email.' },
);
export type SuppressionCreateRequest = Static<typeof SuppressionCreateRequest>;

/** An entry names someone: a phone, an email, or both (the schema cannot say "one of" in TypeBox's checker). */
export function suppressionCreateRules(input: unknown): Issue[] {
  const body = input as Partial<SuppressionCreateRequest> | null;
  if (!body || typeof body !== 'object' || body.phone !== undefined || body.email !== undefined) return [];
  return [{ path: ['phone'], message: 'is required when there is no email: an entry names a phone, an email, or both' }];
}

export const SuppressionView = Type.Object({
  id: Type.String({ description: 'The entry id (`sup_…`).' }),
  phone: Nullable(Type.String(), 'Null when the entry has none, and for an erasure (which keeps only a hash).'),
  email: Nullable(Type.String(), 'Lower case. Null when the entry has none, and for an erasure.'),
  channels: Type.Array(Enum(SUPPRESSION_CHANNELS)),
  source: Enum(SUPPRESSION_SOURCES),
  reason: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
});
export type SuppressionView = Static<typeof SuppressionView>;

export const SuppressionResponse = Type.Object({ success: Type.Literal(true), data: SuppressionView });
export const SuppressionListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(SuppressionView),
  next_cursor: Nullable(Type.String(), 'Null on the last page.'),
});
export const SuppressionListQuery = Strict({
  phone: Type.Optional(Phone),
  email: Type.Optional(Email),
  source: Type.Optional(Enum(SUPPRESSION_SOURCES)),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Entries per page, 1 to 100.' }),
  cursor: Type.Optional(NonEmpty({ maxLength: 512, description: "The previous page's next_cursor; the filters must be the same." })),
});
export type SuppressionListQuery = Static<typeof SuppressionListQuery>;

/**
 * The replies that revoke consent on WhatsApp, heard through the punctuation, symbols, invisible format
 * characters and spaces people type around them ("Stop.", "STOP!", " stop ", "¡Alto!", "opt-out"), and
 * case-folded: the FCC's "any reasonable means" in the words carriers and messaging platforms already honour,
 * in English and Spanish. A sentence that has one in it ("don't stop") is not a STOP.
 */
const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit', 'opt out', 'optout', 'revoke', 'baja', 'alto']);

export function isStopWord(text: string): boolean {
  const words = text.normalize('NFKC').replace(/[\p{P}\p{S}\p{Cf}]+/gu, ' ');
  return STOP_WORDS.has(words.trim().replace(/\s+/g, ' ').toLowerCase());
}
