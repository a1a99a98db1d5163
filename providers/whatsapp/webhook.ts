import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { MESSAGE_STATUSES } from '../../shared/calls/schema';

/**
 * The part of a WhatsApp Cloud API webhook the service reads: message statuses at
 * `entry[].changes[].value.statuses[]` of a `messages` change. Everything else Meta sends (inbound messages,
 * other fields, fields added later) is allowed and ignored.
 */
export const WhatsAppStatusUpdate = Type.Object({
  id: Type.String({ minLength: 1 }),
  status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
  timestamp: Type.Optional(Type.String()),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        code: Type.Optional(Type.Number()),
        title: Type.Optional(Type.String()),
        message: Type.Optional(Type.String()),
        error_data: Type.Optional(Type.Object({ details: Type.Optional(Type.String()) })),
      }),
    ),
  ),
});
export type WhatsAppStatusUpdate = Static<typeof WhatsAppStatusUpdate>;

const WhatsAppWebhook = Type.Object({
  entry: Type.Array(
    Type.Object({
      changes: Type.Array(
        Type.Object({ field: Type.String(), value: Type.Object({ statuses: Type.Optional(Type.Array(Type.Unknown())) }) }),
      ),
    }),
  ),
});

const checkWebhook = TypeCompiler.Compile(WhatsAppWebhook);
const checkStatus = TypeCompiler.Compile(WhatsAppStatusUpdate);

/**
 * The status updates of a verified webhook delivery. A body of another shape has none; a status of a kind
 * we do not track (such as `deleted`) or of another shape is counted in `ignored`.
 */
export function statusUpdatesIn(body: unknown): { updates: WhatsAppStatusUpdate[]; ignored: number } {
  const updates: WhatsAppStatusUpdate[] = [];
  let ignored = 0;
  if (!checkWebhook.Check(body)) return { updates, ignored };
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      for (const status of change.value.statuses ?? []) {
        if (checkStatus.Check(status)) updates.push(status);
        else ignored++;
      }
    }
  }
  return { updates, ignored };
}
