import { asActivityFailure } from './provider-failures';
import type { MessageKind } from '../shared/calls/schema';
import type { CallDoc, ResolvedTemplate } from '../infra/records/calls';
import { insertOnce } from '../infra/duplicate-key';
import { whatsappRef, type SendResult } from '../providers/whatsapp/port';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallRecords } from './call-records';

/** A call's WhatsApp templates: the pre-call message and the fallback, each sent and recorded once. */
export function createCallMessageActivities({ db, logger, clock, whatsapp }: CallActivityDeps, records: CallRecords) {
  const { calls, load } = records;

  /** Appends the template message of `kind` to the call once, as sent or failed. */
  async function recordMessage(call: CallDoc, kind: MessageKind, template: ResolvedTemplate, result: SendResult): Promise<void> {
    // Recorded by an earlier execution, which may have stopped before announcing it.
    const recorded = call.messages.find((m) => m.kind === kind);
    if (recorded) return calls.announceAgain(call, [callEvents.message(kind, recorded.provider_message_id ? 'sent' : 'failed')]);
    await calls.change(call, {
      events: [callEvents.message(kind, result.sent ? 'sent' : 'failed')],
      push: {
        messages: {
          kind,
          channel: 'whatsapp',
          template_name: template.template_name,
          variables: template.variables,
          status: result.sent ? 'sent' : 'failed',
          provider: whatsapp.name,
          provider_message_id: result.sent ? result.providerMessageId : null,
          error_code: result.sent ? null : (result.code ?? null),
          error: result.sent ? null : result.error,
          sent_at: result.sent ? clock() : null,
        },
      },
    });
  }

  return {
    async sendWhatsApp(callId: string, kind: MessageKind): Promise<void> {
      const call = await load(callId);
      const sent = call.messages.find((m) => m.kind === kind);
      // Sent by an earlier execution, which may have stopped before announcing it.
      if (sent) return calls.announceAgain(call, [callEvents.message(kind, sent.provider_message_id ? 'sent' : 'failed')]);
      const template = call.whatsapp[kind];
      if (!template) return;
      const result = await whatsapp
        .send({
          workspaceId: call.workspace_id,
          callId,
          kind,
          to: call.candidate.phone,
          templateName: template.template_name,
          variables: template.variables,
          language: call.assistant_settings?.language?.code ?? null,
        })
        .catch((err: unknown) => {
          throw asActivityFailure(err, 'WhatsApp');
        });
      if (result.sent) {
        // Lets delivery callbacks find this message by the provider's id.
        await insertOnce(db.providerRefs, { _id: whatsappRef(result.providerMessageId), call_id: callId, kind, created_at: clock() });
      } else {
        logger.warn({ callId, kind, code: result.code, error: result.error, detail: result.detail }, 'WhatsApp template not sent');
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
