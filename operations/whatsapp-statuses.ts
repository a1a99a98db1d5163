import type { Logger } from '../infra/logger';
import type { Stores } from '../stores';
import { callEvents } from '../stores/calls';
import { inboundMessagesIn, messageOfCallbackData, statusUpdatesIn, type WhatsAppStatusUpdate } from '../providers/whatsapp/webhook';
import type { CallDoc } from '../infra/documents/calls';
import type { MessageStatus } from '../shared/calls/schema';
import { isStopWord } from '../shared/suppressions/schema';
import type { SuppressionFiling } from './suppressions';

/**
 * Statuses only move forward; a late "delivered" after "read" changes nothing. A failure ends the message. Any
 * status settles an `unknown` one: it went after all.
 */
const RANK: Record<MessageStatus, number> = { unknown: 0, sent: 1, delivered: 2, read: 3, failed: 4, skipped: 5 };

type Deps = { stores: Pick<Stores, 'calls'>; suppressions: Pick<SuppressionFiling, 'fileWhatsAppStop'>; logger: Logger };

/**
 * The call and the index of the message a status is of: by the provider's id, filed when its send was
 * answered; or, for a message recorded `unknown` (its send got no answer, so we never learned its id), by what
 * its send carried (`biz_opaque_callback_data`: the call and the kind).
 */
async function messageOf({ stores }: Deps, s: WhatsAppStatusUpdate): Promise<{ call: CallDoc; index: number; settles: boolean } | null> {
  const call = await stores.calls.ofMessage(s.id);
  const index = call?.messages.findIndex((m) => m.provider_message_id === s.id) ?? -1;
  if (call && index >= 0) return { call, index, settles: false };
  const named = messageOfCallbackData(s.biz_opaque_callback_data);
  const owner = named && (await stores.calls.get(named.callId));
  const unknown = owner?.messages.findIndex((m) => m.kind === named!.kind && m.status === 'unknown' && !m.provider_message_id) ?? -1;
  return owner && unknown >= 0 ? { call: owner, index: unknown, settles: true } : null;
}

/**
 * Applies every message status in one verified webhook delivery, and files a suppression for every reply in it
 * that is a stop word (shared/suppressions/schema.ts; operations/suppressions.ts). Other inbound messages are
 * ignored.
 */
export async function handleWhatsAppEvent(deps: Deps, body: unknown): Promise<number> {
  const { updates, ignored } = statusUpdatesIn(body);
  if (ignored > 0) deps.logger.info({ ignored }, 'WhatsApp statuses of a kind not tracked; acknowledged');
  let applied = 0;
  for (const status of updates) if (await applyStatus(deps, status)) applied++;
  for (const message of inboundMessagesIn(body)) {
    if (!isStopWord(message.text)) continue;
    const workspaces = await deps.suppressions.fileWhatsAppStop(message);
    deps.logger.info({ whatsapp_message_id: message.id, workspaces }, 'WhatsApp STOP filed');
  }
  return applied;
}

async function applyStatus(deps: Deps, s: WhatsAppStatusUpdate): Promise<boolean> {
  const { stores, logger } = deps;
  const status = s.status;
  const { calls } = stores;
  const found = await messageOf(deps, s);
  if (!found) {
    logger.info({ whatsapp_message_id: s.id, status }, 'status for a message that is not ours; acknowledged');
    return false;
  }
  const { call, index, settles } = found;
  const message = call.messages[index];
  const current = message.status;
  if (RANK[status] < RANK[current]) return false;
  const event = callEvents.message(message.kind, status);
  // The same status again: Meta resends a delivery its first answer did not acknowledge, and the change may
  // be stored but not yet announced (Temporal was down). Its repeat is found made, and announced again.
  if (status === current) {
    await calls.change(call, { events: [event] });
    return false;
  }
  const error = s.errors?.[0];
  const at = Number(s.timestamp);
  const m = `messages.${index}`;
  if (settles) {
    // It went after all: its id is learned and filed, so its later statuses find it as any other's do.
    await calls.fileMessage(s.id, call._id, message.kind, new Date());
    logger.info({ callId: call._id, kind: message.kind, status }, 'WhatsApp message of unknown outcome settled by its status');
  }
  // By exact _id after the rank check on the status read: an extra filter field would scan every call on
  // FerretDB. Two deliveries of one message racing may both write; statuses arrive seconds apart in practice.
  await calls.change(call, {
    events: [event],
    set: {
      [`${m}.status`]: status,
      [`${m}.status_updated_at`]: Number.isFinite(at) && at > 0 ? new Date(at * 1000) : new Date(),
      ...(settles ? { [`${m}.provider_message_id`]: s.id, [`${m}.error`]: null } : {}),
      ...(status === 'failed'
        ? {
            [`${m}.error_code`]: error?.code ?? null,
            [`${m}.error`]: [error?.title ?? error?.message, error?.error_data?.details].filter(Boolean).join(': ') || 'Delivery failed',
          }
        : {}),
    },
  });
  return true;
}
