import type { EmailMessage, EmailProvider, EmailResult } from './port';

/** The default provider: keeps each message instead of sending it (`email_log`, stores/provider-logs.ts). */
export class LogEmailProvider implements EmailProvider {
  readonly name = 'log';
  readonly deduplicates = true;
  /** `record` keeps a message once per idempotency key, however often it is retried, and returns its id. */
  constructor(private readonly record: (m: EmailMessage) => Promise<string>) {}

  async send(m: EmailMessage): Promise<EmailResult> {
    return { sent: true, messageId: await this.record(m) };
  }
}
