import type { Database } from '../../infra/database';
import { insertOnce } from '../../infra/duplicate-key';
import { keyedId } from '../../infra/ids';

export interface TemplateMessage {
  workspaceId: string;
  callId: string;
  kind: 'pre_call' | 'fallback';
  to: string;
  templateName: string;
  variables: Record<string, string>;
  /** The call's language code; picks among a template's approved languages. */
  language?: string | null;
}

/** `sent: false` is a refusal that sending again cannot change; `code` is the provider's error code. */
export type SendResult = { sent: true; providerMessageId: string } | { sent: false; error: string; code?: number };

/** The provider_refs key of a sent message. */
export function whatsappRef(providerMessageId: string): string {
  return `whatsapp/${providerMessageId}`;
}

/** Sends approved WhatsApp templates. A `sent: false` result is final; thrown errors are retried. */
export interface WhatsAppProvider {
  readonly name: string;
  send(message: TemplateMessage): Promise<SendResult>;
}

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
