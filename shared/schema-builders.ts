import { Type, type TSchema } from '@sinclair/typebox';

/** Small schema builders shared by every request schema, so the same idea is spelled the same way. */
export const Enum = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

/** An object that rejects unknown fields. */
export const Strict = <T extends Record<string, TSchema>>(props: T, options: Record<string, unknown> = {}) =>
  Type.Object(props, { additionalProperties: false, ...options });

/** A value or null; `description` says what null means. */
export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

export const NonEmpty = (options: Record<string, unknown> = {}) => Type.String({ minLength: 1, ...options });

/** String options for text that must hold more than whitespace. */
export const NOT_BLANK = { pattern: '\\S', errorMessage: 'must not be blank' } as const;

/**
 * What a title or a name may not hold: C0 and C1 controls (CR, LF, tab…), the line and paragraph separators,
 * and the bidirectional embeddings, overrides and isolates, which make a name read otherwise than it is stored
 * (in an email's subject, a header, the dashboard or a log line).
 */
const LINE_BREAKERS = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069';

/**
 * String options for a title or a name: one line of text that is not blank. One pattern in linear time
 * (spaces, then a character that is not one, then the rest, from classes that do not overlap), so a generator
 * of examples can read it too. `errorMessage` speaks for a blank value; shared/validation.ts says what else failed.
 */
export const ONE_LINE = {
  pattern: `^[^\\S${LINE_BREAKERS}]*[^\\s${LINE_BREAKERS}][^${LINE_BREAKERS}]*$`,
  errorMessage: 'must not be blank',
} as const;
export const ONE_LINE_MESSAGE = 'must be one line of text, without control characters or bidirectional overrides';

/** A custom field's key: it becomes a template variable and a column in an ATS's export. */
export const CUSTOM_FIELD_KEY = '^[A-Za-z0-9_-]{1,100}$';
export const CUSTOM_FIELD_KEY_MESSAGE = 'is not a valid key: use 1 to 100 letters, digits, _ or -';

/** Free-form values a caller may attach to a candidate. */
export const CustomFields = Type.Record(
  Type.String({ pattern: CUSTOM_FIELD_KEY }),
  Type.Union([Type.String(), Type.Number(), Type.Boolean()], { errorMessage: 'must be a string, number or boolean' }),
  { maxProperties: 50, additionalProperties: false },
);
