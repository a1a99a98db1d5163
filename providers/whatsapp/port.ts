import type { TemplateMessage } from '../../shared/calls/whatsapp-templates';

export type { TemplateMessage } from '../../shared/calls/whatsapp-templates';

/** `sent: false` is a refusal that sending again cannot change; `code` is the provider's error code. */
export type SendResult =
  | { sent: true; providerMessageId: string }
  /** `error` is what a client may read; `detail`, the provider's own words, is for the log only. */
  | { sent: false; error: string; code?: number; detail?: string };

export type TemplateProblem = { on: 'template' | 'variables'; problem: string };

/** Template definitions, so a template and its variables are checked before a message is due. */
export interface WhatsAppTemplateCheck {
  /** Why template `name` cannot carry variables named `keys` (in `language`), or null when it can. */
  problemWith(name: string, keys: string[], language?: string | null): Promise<TemplateProblem | null>;
}

/**
 * A message made ready to go: everything before its one request is done (the template's definition looked up),
 * or it was refused before any request (the template is gone, unapproved, or its variables no longer fit).
 */
export type PreparedMessage = { ready: true; send(): Promise<SendResult> } | { ready: false; refused: SendResult & { sent: false } };

/**
 * Sends approved WhatsApp templates. A `sent: false` result is final; thrown errors are retried. `prepare` does
 * all but the request that sends, so a caller can claim the send (stores/sends.ts) right before it goes: a
 * worker that dies between the two leaves as little as can be unknown.
 */
export interface WhatsAppProvider {
  readonly name: string;
  /**
   * Sends one message per call and kind, however often it is asked (the log provider's unique key): a send
   * through it needs no claim of ours to go once (activities/call-messages.ts).
   */
  readonly deduplicates?: true;
  prepare(message: TemplateMessage): Promise<PreparedMessage>;
  /** `prepare`, then its send. */
  send(message: TemplateMessage): Promise<SendResult>;
}
