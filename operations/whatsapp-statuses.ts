import type { Logger } from '../infra/logger';
import type { Stores } from '../stores';
import { callEvents } from '../stores/calls';
import { inboundMessagesIn, statusUpdatesIn, type WhatsAppStatusUpdate } from '../providers/whatsapp/webhook';
import type { MessageStatus } from '../shared/calls/schema';
import { isStopWord } from '../shared/suppressions/schema';
import type { SuppressionFiling } from './suppressions';

/** Statuses only move forward; a late "delivered" after "read" changes nothing. A failure ends the message. */
const RANK: Record<MessageStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4, skipped: 5 };

type Deps = { stores: Pick<Stores, 'calls'>; suppressions: Pick<SuppressionFiling, 'fileWhatsAppStop'>; logger: Logger };

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

async function applyStatus({ stores, logger }: Deps, s: WhatsAppStatusUpdate): Promise<boolean> {
  const status = s.status;
  const { calls } = stores;
  const call = await calls.ofMessage(s.id);
  const index = call?.messages.findIndex((m) => m.provider_message_id === s.id) ?? -1;
  if (!call || index < 0) {
    logger.info({ whatsapp_message_id: s.id, status }, 'status for a message that is not ours; acknowledged');
    return false;
  }
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
  // By exact _id after the rank check on the status read: an extra filter field would scan every call on
  // FerretDB. Two deliveries of one message racing may both write; statuses arrive seconds apart in practice.
  await calls.change(call, {
    events: [event],
    set: {
      [`${m}.status`]: status,
      [`${m}.status_updated_at`]: Number.isFinite(at) && at > 0 ? new Date(at * 1000) : new Date(),
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
