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

/** Sends approved WhatsApp templates. A `sent: false` result is final; thrown errors are retried. */
export interface WhatsAppProvider {
  readonly name: string;
  send(message: TemplateMessage): Promise<SendResult>;
}
