import type { Database } from '../../infra/database';
import { insertOnce } from '../../infra/duplicate-key';
import { keyedId } from '../../infra/ids';
import type { SendResult, TemplateMessage, WhatsAppProvider } from './port';

/** The default provider: records each template message, variables resolved, in `whatsapp_log`. */
export class LogWhatsAppProvider implements WhatsAppProvider {
  readonly name = 'log';
  constructor(private readonly db: Database) {}

  async send(m: TemplateMessage): Promise<SendResult> {
    // Keyed by (call, kind), so a retried activity records the message once.
    const _id = keyedId('wa', m.callId, m.kind);
    await insertOnce(this.db.whatsappLog, {
      _id,
      workspace_id: m.workspaceId,
      call_id: m.callId,
      kind: m.kind,
      to: m.to,
      template_name: m.templateName,
      variables: m.variables,
      created_at: new Date(),
    });
    return { sent: true, providerMessageId: _id };
  }
}
