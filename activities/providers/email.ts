import type { Database } from '../../infra/database';
import { insertOnce } from '../../infra/duplicate-key';
import { keyedId } from '../../infra/ids';

export interface EmailAddress {
  email: string;
  name?: string;
}

export interface EmailMessage {
  /** One message per key: providers that can deduplicate use it, and the activity records sends under it. */
  idempotencyKey: string;
  from: EmailAddress;
  to: EmailAddress;
  subject: string;
  text: string;
  html: string;
  /** Provider-side tags, so the provider's own logs and events can be traced back to our records. */
  tags: Record<string, string>;
}

/** `sent: false` is a final refusal (a bad address, a rejected sender); thrown errors are worth retrying. */
export type EmailResult = { sent: true; messageId: string } | { sent: false; error: string };

export interface EmailProvider {
  readonly name: string;
  send(message: EmailMessage): Promise<EmailResult>;
}

/** The default provider: records each message in `email_log` instead of sending it. */
export class LogEmailProvider implements EmailProvider {
  readonly name = 'log';
  constructor(private readonly db: Database) {}

  async send(m: EmailMessage): Promise<EmailResult> {
    // Keyed by the message's idempotency key, so a retried activity records the message once.
    const _id = keyedId('mail', m.idempotencyKey);
    await insertOnce(this.db.emailLog, {
      _id,
      idempotency_key: m.idempotencyKey,
      to: m.to.name ? `${m.to.name} <${m.to.email}>` : m.to.email,
      from: m.from.name ? `${m.from.name} <${m.from.email}>` : m.from.email,
      subject: m.subject,
      text: m.text,
      html: m.html,
      created_at: new Date(),
    });
    return { sent: true, messageId: _id };
  }
}
