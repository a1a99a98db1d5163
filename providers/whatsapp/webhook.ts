import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { MESSAGE_KINDS, MESSAGE_STATUSES, type MessageKind } from '../../shared/calls/schema';

/**
 * The part of a WhatsApp Cloud API webhook the service reads: message statuses at
 * `entry[].changes[].value.statuses[]` of a `messages` change, and people's messages at `value.messages[]`
 * (for suppressions: a STOP). Everything else Meta sends (other fields, fields added later) is allowed and ignored.
 */
export const WhatsAppStatusUpdate = Type.Object({
  id: Type.String({ minLength: 1 }),
  // `skipped` and `unknown` are ours alone: a message never sent, or one not known to be, has no status from Meta.
  status: Type.Union(MESSAGE_STATUSES.filter((s) => s !== 'skipped' && s !== 'unknown').map((s) => Type.Literal(s))),
  timestamp: Type.Optional(Type.String()),
  /** What the send carried (messageCallbackData), echoed. */
  biz_opaque_callback_data: Type.Optional(Type.String()),
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
        Type.Object({
          field: Type.String(),
          value: Type.Object({
            statuses: Type.Optional(Type.Array(Type.Unknown())),
            messages: Type.Optional(Type.Array(Type.Unknown())),
            metadata: Type.Optional(Type.Object({ phone_number_id: Type.Optional(Type.String()) })),
          }),
        }),
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

/**
 * An inbound message from a person, as much as a suppression needs: who (`from`, the WhatsApp id, which is the
 * phone number's digits) and its words: a text's body, a template's quick-reply button's text, or the title of
 * an interactive message's reply (`button_reply` or `list_reply`), which is what the person chose and saw.
 */
const Reply = Type.Optional(Type.Object({ title: Type.String() }));
const InboundMessage = Type.Object({
  id: Type.String({ minLength: 1 }),
  from: Type.String({ pattern: '^[1-9][0-9]{1,14}$' }),
  text: Type.Optional(Type.Object({ body: Type.String() })),
  button: Type.Optional(Type.Object({ text: Type.String() })),
  interactive: Type.Optional(Type.Object({ button_reply: Reply, list_reply: Reply })),
});
const checkInbound = TypeCompiler.Compile(InboundMessage);

export interface WhatsAppInbound {
  id: string;
  /** E.164. */
  phone: string;
  text: string;
  /** The phone number id of ours the message was sent to (`value.metadata.phone_number_id`), when Meta names it. */
  toNumberId?: string;
}

/** The people's messages of a verified webhook delivery that carry words; other kinds (media, reactions) are left. */
export function inboundMessagesIn(body: unknown): WhatsAppInbound[] {
  const found: WhatsAppInbound[] = [];
  if (!checkWebhook.Check(body)) return found;
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      for (const m of change.value.messages ?? []) {
        if (!checkInbound.Check(m)) continue;
        const text = m.text?.body ?? m.button?.text ?? m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title;
        const toNumberId = change.value.metadata?.phone_number_id;
        if (text !== undefined) found.push({ id: m.id, phone: `+${m.from}`, text, ...(toNumberId ? { toNumberId } : {}) });
      }
    }
  }
  return found;
}

/**
 * What a sent template carries in `biz_opaque_callback_data`, which Meta echoes in its status updates: the
 * call and the kind of the message, so a message whose send got no answer (its provider id never learned) is
 * settled by the first status that names it (operations/whatsapp-statuses.ts).
 */
export function messageCallbackData(callId: string, kind: MessageKind): string {
  return `${callId}/${kind}`;
}

/** The call and kind a status's `biz_opaque_callback_data` names, or null when it names none of ours. */
export function messageOfCallbackData(data: string | undefined): { callId: string; kind: MessageKind } | null {
  const at = data?.lastIndexOf('/') ?? -1;
  if (!data || at <= 0) return null;
  const kind = data.slice(at + 1);
  return (MESSAGE_KINDS as readonly string[]).includes(kind) ? { callId: data.slice(0, at), kind: kind as MessageKind } : null;
}
