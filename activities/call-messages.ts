import { asActivityFailure } from './provider-failures';
import { outcomeUnknown } from '../shared/errors';
import { SEND_UNANSWERED } from '../shared/contact/reasons';
import type { MessageKind, SkipReason } from '../shared/calls/schema';
import type { CallDoc, CallMessage, ResolvedTemplate } from '../infra/documents/calls';
import type { SendResult } from '../providers/whatsapp/port';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallChanges } from './call-changes';
import { maskedRefusal } from '../shared/address-masking';
import { ownNumber } from '../infra/documents/workspaces';
import { whileBeating } from './heartbeats';

/** How long a send may take before another execution could have run meanwhile (the heartbeat timeout is 10 s). */
const SETTLE_AFTER_MS = 5_000;

/** A message whose send got no answer: it may have gone. `error` says why it is unknown. */
type Unknown = { unknown: string };

/**
 * A call's WhatsApp templates: the pre-call message and the fallback, each sent at most once and recorded
 * once. The send is claimed before it goes (stores/sends.ts): an execution that finds it claimed by another,
 * which may have sent it, records it `unknown` and does not send it.
 */
export function createCallMessageActivities({ stores, logger, clock, whatsapp }: CallActivityDeps, changes: CallChanges) {
  const { calls, load } = changes;

  /**
   * The status a recorded message was first given: its event, which a repeat of its recording announces again.
   * A sent one has its `sent_at`; one recorded unknown has none, and keeps none once a status settles it.
   */
  const firstStatus = (m: CallMessage) =>
    m.status === 'skipped' ? 'skipped' : m.sent_at ? 'sent' : m.status === 'unknown' || m.provider_message_id ? 'unknown' : 'failed';
  /** The change that recorded the message, repeated: the store finds it made and announces it again. */
  const repeat = (call: CallDoc, m: CallMessage) => calls.change(call, { events: [callEvents.message(m.kind, firstStatus(m))] });

  /** Appends the template message of `kind` to the call once: sent, failed, skipped (the phone opted out), or unknown. */
  async function recordMessage(
    call: CallDoc,
    kind: MessageKind,
    template: ResolvedTemplate,
    result: SendResult | { skipped: SkipReason } | Unknown,
  ): Promise<void> {
    // Recorded by an earlier execution, which may have stopped before announcing it.
    const recorded = call.messages.find((m) => m.kind === kind);
    if (recorded) {
      await repeat(call, recorded);
      return;
    }
    const message: CallMessage = {
      kind,
      channel: 'whatsapp',
      template_name: template.template_name,
      variables: template.variables,
      status: 'skipped' in result ? 'skipped' : 'unknown' in result ? 'unknown' : result.sent ? 'sent' : 'failed',
      provider: whatsapp.name,
      provider_message_id: 'sent' in result && result.sent ? result.providerMessageId : null,
      error: null,
      sent_at: null,
    };
    if ('skipped' in result) message.skip_reason = result.skipped;
    else if ('unknown' in result) message.error = result.unknown;
    else if (result.sent) message.sent_at = clock();
    else Object.assign(message, { error_code: result.code ?? null, error: result.error });
    await calls.change(call, { events: [callEvents.message(kind, message.status)], push: { messages: message } });
  }

  /**
   * Sends the template once it is claimed (stores/sends.ts), right before its one request: an execution before
   * this one that claimed it may have sent it (its worker died between the send and its record), so this one
   * does not, and neither does one whose send got no answer; both are `unknown`. A send WhatsApp surely did not
   * take is given back and thrown, and so is a failure before the claim (the template's lookup).
   */
  async function sendOnce(
    call: CallDoc,
    kind: MessageKind,
    template: ResolvedTemplate,
    from: string | null,
  ): Promise<SendResult | Unknown> {
    const callId = call._id;
    const message = {
      workspaceId: call.workspace_id,
      callId,
      kind,
      to: call.candidate.phone,
      templateName: template.template_name,
      variables: template.variables,
      language: call.assistant_settings?.language?.code ?? null,
      fromNumberId: from,
    };
    const prepared = await whatsapp.prepare(message).catch((err: unknown) => {
      throw asActivityFailure(err, 'WhatsApp');
    });
    if (!prepared.ready) return prepared.refused;
    // A provider that sends once per call and kind does what the claim is for.
    if (whatsapp.deduplicates) return prepared.send();
    const send = await stores.sends.take({ channel: 'whatsapp', callId, kind }, clock());
    if (!send) {
      logger.warn({ callId, kind }, 'WhatsApp template begun by an earlier execution; recorded unknown, not sent again');
      return { unknown: SEND_UNANSWERED };
    }
    try {
      return await prepared.send();
    } catch (err) {
      if (outcomeUnknown(err)) {
        logger.warn({ callId, kind, error: maskedRefusal((err as Error).message) }, 'WhatsApp template got no answer; recorded unknown');
        return { unknown: SEND_UNANSWERED };
      }
      // Surely not sent (WhatsApp answered with an error, or was never reached): a retry may send it.
      await stores.sends.giveBack(send);
      throw asActivityFailure(err, 'WhatsApp');
    }
  }

  /**
   * A send that lasted past the activity's heartbeat timeout may have been taken for dead and run again
   * meanwhile, which recorded the message unknown: the send this one made settles it.
   */
  async function settleIfRecorded(callId: string, kind: MessageKind, result: SendResult & { sent: true }): Promise<boolean> {
    const call = await load(callId);
    const index = call.messages.findIndex((m) => m.kind === kind);
    if (index < 0) return false;
    if (call.messages[index].status === 'unknown' && !call.messages[index].provider_message_id) {
      const m = `messages.${index}`;
      await calls.change(call, {
        events: [callEvents.message(kind, 'sent')],
        set: {
          [`${m}.status`]: 'sent',
          [`${m}.provider_message_id`]: result.providerMessageId,
          [`${m}.sent_at`]: clock(),
          [`${m}.error`]: null,
        },
      });
    }
    return true;
  }

  return {
    async sendWhatsApp(callId: string, kind: MessageKind): Promise<void> {
      const call = await load(callId);
      const sent = call.messages.find((m) => m.kind === kind);
      // Sent by an earlier execution, which may have stopped before announcing it: never sent twice.
      if (sent) {
        await repeat(call, sent);
        return;
      }
      const template = call.whatsapp[kind];
      if (!template) return;
      // The suppression list, read right before the send: a phone suppressed for WhatsApp gets no message, and
      // one suppressed for voice neither the call's announcement nor its fallback (docs/contact-rules.md).
      const workspace = await stores.workspaces.get(call.workspace_id);
      const refused = await stores.suppressions.channelsFor(workspace, {
        phone: call.candidate.phone,
        email: call.candidate.email,
      });
      if (refused.has('whatsapp') || refused.has('voice')) return recordMessage(call, kind, template, { skipped: 'opted_out' });
      const began = Date.now();
      // Beating while WhatsApp is asked: a worker that dies mid-send is noticed in 10 s, not the activity's minute.
      const result = await whileBeating(() => sendOnce(call, kind, template, ownNumber(workspace, 'whatsapp')));
      if ('unknown' in result) return recordMessage(call, kind, template, result);
      if (result.sent) {
        // Lets delivery callbacks find this message by the provider's id.
        await stores.calls.fileMessage(result.providerMessageId, callId, kind, clock());
        if (Date.now() - began > SETTLE_AFTER_MS && (await settleIfRecorded(callId, kind, result))) return;
      } else {
        logger.warn(
          { callId, kind, code: result.code, error: maskedRefusal(result.error), detail: maskedRefusal(result.detail) },
          'WhatsApp template not sent',
        );
      }
      await recordMessage(call, kind, template, result);
    },

    /** Records a template that could not be sent after every retry; the call goes on without it. */
    async recordMessageFailure(callId: string, kind: MessageKind, error: string): Promise<void> {
      const call = await load(callId);
      const template = call.whatsapp[kind];
      if (!template) return;
      await recordMessage(call, kind, template, { sent: false, error });
    },
  };
}
