import { Kind, type TSchema } from '@sinclair/typebox';

/**
 * Turns a TypeBox schema into the JSON Schema subset that OpenAI's strict structured outputs accept: every
 * object closed and with all its properties required, unions of literals as `enum`, and only the keywords
 * strict mode is documented to support. Bounds, lengths and formats are dropped here because the answer is
 * validated again against the full TypeBox schema.
 */
const KEPT = new Set(['type', 'description', 'enum', 'const', 'items', 'properties', 'required', 'additionalProperties', 'anyOf']);

export function toStrictJsonSchema(schema: TSchema): Record<string, unknown> {
  const s = schema as Record<string | symbol, any>;
  if (Array.isArray(s.anyOf) && s.anyOf.every((v: TSchema) => v[Kind] === 'Literal')) {
    const values = s.anyOf.map((v: { const: unknown }) => v.const);
    return withDescription({ type: typeof values[0], enum: values }, s);
  }
  if (s.type === 'object' && s.properties) {
    // Strict mode wants every property required: an optional one becomes required-but-nullable.
    const required = new Set<string>(s.required ?? []);
    const properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => {
        const converted = toStrictJsonSchema(v as TSchema);
        return [k, required.has(k) ? converted : { anyOf: [converted, { type: 'null' }] }];
      }),
    );
    return withDescription({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, s);
  }
  if (s.type === 'array') return withDescription({ type: 'array', items: toStrictJsonSchema(s.items) }, s);
  if (Array.isArray(s.anyOf)) return withDescription({ anyOf: s.anyOf.map((v: TSchema) => toStrictJsonSchema(v)) }, s);
  return Object.fromEntries(Object.entries(s).filter(([k]) => KEPT.has(k)));
}

function withDescription(out: Record<string, unknown>, s: Record<string, any>): Record<string, unknown> {
  return typeof s.description === 'string' ? { ...out, description: s.description } : out;
}
