import type { PreparedMessage, SendResult, TemplateMessage, WhatsAppProvider } from './port';

/**
 * The default provider: keeps each template message, variables resolved, instead of sending it
 * (`whatsapp_log`, stores/provider-logs.ts).
 */
export class LogWhatsAppProvider implements WhatsAppProvider {
  readonly name = 'log';
  readonly deduplicates = true;
  /** `record` keeps a message once, however often it is retried, and returns the id it is kept under. */
  constructor(private readonly record: (m: TemplateMessage) => Promise<string>) {}

  async prepare(m: TemplateMessage): Promise<PreparedMessage> {
    return { ready: true, send: async () => ({ sent: true, providerMessageId: await this.record(m) }) };
  }

  async send(m: TemplateMessage): Promise<SendResult> {
    const prepared = await this.prepare(m);
    return prepared.ready ? prepared.send() : prepared.refused;
  }
}
