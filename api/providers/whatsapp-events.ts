import type { Database } from '../../infra/database';
import type { Logger } from '../../infra/logger';
import type { MessageStatus } from '../../shared/calls/schema';
import type { Announce } from '../../infra/webhooks/events';
import { callEvents, callStore } from '../../stores/calls';
import { whatsappRef } from '../../providers/whatsapp/port';
import { inboundMessagesIn, statusUpdatesIn, type WhatsAppInbound, type WhatsAppStatusUpdate } from '../../providers/whatsapp/webhook';
import { keyedId } from '../../infra/ids';
import { suppressionLedger } from '../../infra/suppressions';
import { isStopWord } from '../../shared/suppressions/schema';

/** Statuses only move forward; a late "delivered" after "read" changes nothing. A failure ends the message. */
const RANK: Record<MessageStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4, skipped: 5 };

type Deps = { db: Database; logger: Logger; announce: Announce; optedOut: (suppressionIds: string[]) => Promise<void> };

/**
 * Applies every message status in one verified webhook delivery, and every opt-out in it: a person's reply
 * that is a stop word (shared/suppressions/schema.ts). Other inbound messages are ignored.
 */
export async function handleWhatsAppEvent(deps: Deps, body: unknown): Promise<number> {
  const { updates, ignored } = statusUpdatesIn(body);
  if (ignored > 0) deps.logger.info({ ignored }, 'WhatsApp statuses of a kind not tracked; acknowledged');
  let applied = 0;
  for (const status of updates) if (await applyStatus(deps, status)) applied++;
  for (const message of inboundMessagesIn(body)) if (isStopWord(message.text)) await optOutEverywhere(deps, message);
  return applied;
}

/**
 * A STOP revokes consent to calls and messages (the FCC's revocation rule covers both) in every workspace
 * that has a candidate with the phone, since an inbound message names no workspace. The workspaces are found
 * by the candidates' phone (MongoDB's `by_phone` index; FerretDB reads the candidates through, as a STOP is
 * rare). The entries' ids come from the message's, so Meta's redelivery of it files nothing twice.
 */
async function optOutEverywhere({ db, logger, optedOut }: Deps, message: WhatsAppInbound): Promise<void> {
  const workspaces = await db.candidates.distinct('workspace_id', { phone: message.phone });
  const ledger = suppressionLedger(db);
  const ids: string[] = [];
  for (const workspaceId of workspaces) {
    const entry = await ledger.add({
      id: keyedId('sup', workspaceId, 'whatsapp', message.id),
      workspaceId,
      phone: message.phone,
      channels: ['voice', 'whatsapp'],
      source: 'whatsapp',
      reason: `WhatsApp reply: ${message.text.trim().slice(0, 40)}`,
    });
    ids.push(entry._id);
  }
  logger.info({ whatsapp_message_id: message.id, workspaces: workspaces.length }, 'WhatsApp opt-out filed');
  await optedOut(ids);
}

async function applyStatus({ db, logger, announce }: Deps, s: WhatsAppStatusUpdate): Promise<boolean> {
  const status = s.status;
  const ref = await db.providerRefs.findOne({ _id: whatsappRef(s.id) });
  const call = ref ? await db.calls.findOne({ _id: ref.call_id }) : null;
  const index = call?.messages.findIndex((m) => m.provider_message_id === s.id) ?? -1;
  if (!call || index < 0) {
    logger.info({ whatsapp_message_id: s.id, status }, 'status for a message that is not ours; acknowledged');
    return false;
  }
  const message = call.messages[index];
  const current = message.status;
  if (RANK[status] < RANK[current]) return false;
  const calls = callStore({ db, announce });
  const event = callEvents.message(message.kind, status);
  // The same status again: Meta resends a delivery its first answer did not acknowledge, and the change may
  // be stored but not yet announced (Temporal was down). Announcing is idempotent.
  if (status === current) {
    await calls.announceAgain(call, [event]);
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
