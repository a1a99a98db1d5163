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

/** Free-form values a caller may attach to a candidate. */
export const CustomFields = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.Union([Type.String(), Type.Number(), Type.Boolean()], { errorMessage: 'must be a string, number or boolean' }),
  { maxProperties: 50 },
);
