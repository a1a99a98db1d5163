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
  /** Extra headers, such as List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
  /** Provider-side tags, so the provider's own logs and events can be traced back to our records. */
  tags: Record<string, string>;
  /** What the email is (invitation, reminder, resend), for the service's metrics; providers do not send it. */
  kind?: string;
}

/** `sent: false` is a final refusal (a bad address, a rejected sender); thrown errors are worth retrying. */
export type EmailResult =
  | { sent: true; messageId: string }
  /** `error` is what a client may read; `detail`, the provider's own words, is for the log only. */
  | { sent: false; error: string; detail?: string };

export interface EmailProvider {
  readonly name: string;
  /**
   * Sends one message per `idempotencyKey`, however often it is asked (the log provider's unique key): a send
   * through it needs no claim of ours to go once (activities/candidate-emails.ts).
   */
  readonly deduplicates?: true;
  send(message: EmailMessage): Promise<EmailResult>;
}
