import type { Database } from '../../infra/database';
import { insertOnce } from '../../infra/duplicate-key';
import { keyedId } from '../../infra/ids';
import type { EmailMessage, EmailProvider, EmailResult } from './port';

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
