import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import { providerFailureText, unansweredFailure, upstreamFailure } from '../../shared/errors';
import type { EmailMessage, EmailProvider, EmailResult } from './port';

export interface SendGridOptions {
  apiKey: string;
  /** https://api.sendgrid.com, https://api.eu.sendgrid.com, or a local server in tests. */
  baseUrl: string;
  timeoutMs: number;
}

/** The error body SendGrid's v3 API returns: `{errors:[{message, field, help}]}`. */
interface SendGridErrorBody {
  errors?: Array<{ message?: string; field?: string | null }>;
}

/**
 * Email through SendGrid's v3 Mail Send API with the official client. SendGrid has no idempotency keys; what
 * the email is about and which email it is (`kind`) travel as custom args, so it can be matched in SendGrid's
 * activity feed and events, and the activity never sends it twice (activities/candidate-emails.ts).
 */
export class SendGridEmailProvider implements EmailProvider {
  readonly name = 'sendgrid';
  private readonly mail: MailService;

  constructor(opts: SendGridOptions) {
    const client = new Client();
    client.setApiKey(opts.apiKey);
    // setApiKey resets the base URL to SendGrid's global host; the configured one wins.
    client.setDefaultRequest('baseUrl', opts.baseUrl.replace(/\/?$/, '/'));
    this.mail = new MailService();
    this.mail.setClient(client);
    this.mail.setTimeout(opts.timeoutMs);
  }

  async send(m: EmailMessage): Promise<EmailResult> {
    try {
      const [response] = await this.mail.send({
        from: m.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        ...(m.headers ? { headers: m.headers } : {}),
        customArgs: m.tags,
      });
      const messageId = response.headers['x-message-id'];
      return { sent: true, messageId: typeof messageId === 'string' && messageId ? messageId : m.idempotencyKey };
    } catch (err) {
      const status = (err as { code?: unknown }).code;
      if (typeof status === 'number') {
        const detail = describeErrors((err as { response?: { body?: SendGridErrorBody } }).response?.body);
        const message = `SendGrid answered ${status}${detail ? `: ${detail}` : ''}`;
        const failure = upstreamFailure('sendgrid', status, message);
        // A refusal will fail the same way again: bad address, unverified sender, bad key.
        if (!failure.retryable) return { sent: false, error: providerFailureText(failure), detail: message };
        throw failure;
      }
      // Network failures: rethrown without the request config, which carries the Authorization header. One
      // that may have reached SendGrid (a timeout, a reset) leaves the email's outcome unknown.
      throw unansweredFailure('sendgrid', `SendGrid request failed: ${(err as Error).message}`, err);
    }
  }
}

function describeErrors(body: SendGridErrorBody | undefined): string {
  if (!body || !Array.isArray(body.errors)) return '';
  return body.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : String(e.message))).join('; ');
}
