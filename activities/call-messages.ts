import { asActivityFailure } from './provider-failures';
import type { MessageKind, SkipReason } from '../shared/calls/schema';
import type { CallDoc, CallMessage, ResolvedTemplate } from '../infra/documents/calls';
import type { SendResult } from '../providers/whatsapp/port';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallChanges } from './call-changes';
import { maskedRefusal } from '../shared/address-masking';
import { ownNumber } from '../infra/documents/workspaces';

/** A call's WhatsApp templates: the pre-call message and the fallback, each sent and recorded once. */
export function createCallMessageActivities({ stores, logger, clock, whatsapp }: CallActivityDeps, changes: CallChanges) {
  const { calls, load } = changes;

  /** The status a recorded message was first given: its event, which a repeat of its recording announces again. */
  const firstStatus = (m: CallMessage) => (m.status === 'skipped' ? 'skipped' : m.provider_message_id ? 'sent' : 'failed');
  /** The change that recorded the message, repeated: the store finds it made and announces it again. */
  const repeat = (call: CallDoc, m: CallMessage) => calls.change(call, { events: [callEvents.message(m.kind, firstStatus(m))] });

  /** Appends the template message of `kind` to the call once, as sent, failed, or skipped (the phone opted out). */
  async function recordMessage(
    call: CallDoc,
    kind: MessageKind,
    template: ResolvedTemplate,
    result: SendResult | { skipped: SkipReason },
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
      status: 'skipped' in result ? 'skipped' : result.sent ? 'sent' : 'failed',
      provider: whatsapp.name,
      provider_message_id: 'sent' in result && result.sent ? result.providerMessageId : null,
      error: null,
      sent_at: null,
    };
    if ('skipped' in result) message.skip_reason = result.skipped;
    else if (result.sent) message.sent_at = clock();
    else Object.assign(message, { error_code: result.code ?? null, error: result.error });
    await calls.change(call, { events: [callEvents.message(kind, message.status)], push: { messages: message } });
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
      const result = await whatsapp
        .send({
          workspaceId: call.workspace_id,
          callId,
          kind,
          to: call.candidate.phone,
          templateName: template.template_name,
          variables: template.variables,
          language: call.assistant_settings?.language?.code ?? null,
          fromNumberId: ownNumber(workspace, 'whatsapp'),
        })
        .catch((err: unknown) => {
          throw asActivityFailure(err, 'WhatsApp');
        });
      if (result.sent) {
        // Lets delivery callbacks find this message by the provider's id.
        await stores.calls.fileMessage(result.providerMessageId, callId, kind, clock());
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
