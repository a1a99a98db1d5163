import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { Operation } from './operation';

/** What the slices' operation tables (api/<slice>/openapi.ts) are built with. */

export const V1 = '/api/public/v1';
export const Success = Type.Object({ success: Type.Literal(true) });
/** A path parameter `id`. */
export const id = (description: string) => [
  { name: 'id', in: 'path' as const, required: true, description, schema: Type.String({ minLength: 1 }) },
];

/** The query parameters of a list operation, from its TypeBox query schema. */
export function queryParameters(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    description: (prop as { description?: string }).description ?? '',
    schema: prop,
  }));
}

const LIST_DESCRIPTION =
  'Newest first by creation, or with `updated_since` the change feed: items in the order they last changed, oldest first, ' +
  'each as it is now (a change appears at least once; an item changed again appears again later). Pages follow `next_cursor`; ' +
  'a cursor made for other filters, another list or another workspace is refused (400). A page may hold fewer than `limit` ' +
  'items while `next_cursor` is given. The feed shows changes about 2 s after they happen, and its last `next_cursor` is kept to poll later.';

export function listOperation(
  path: string,
  operationId: string,
  summary: string,
  tag: Operation['tag'],
  query: TObject,
  response: TSchema,
  errors: Record<number, unknown>,
) {
  return {
    method: 'get',
    path: `${V1}/${path}`,
    operationId,
    summary,
    description: LIST_DESCRIPTION,
    tag,
    security: 'apiKey',
    parameters: queryParameters(query).map((p) => (p.name === 'limit' ? { ...p, required: false } : p)),
    responses: { 200: { description: 'One page.', schema: response }, ...(errors as Operation['responses']) },
  } satisfies Operation;
}
