import type { Database } from './database';
import { insertOnce } from './duplicate-key';
import { keyedId } from './ids';
import type { TemplateMessage } from '../shared/calls/whatsapp-templates';

/**
 * What the log providers keep instead of sending (`whatsapp_log`, `email_log`). Each message is kept once
 * under an id derived from its key, however often its activity is retried, and that id is returned as the
 * provider's message id.
 */
export function whatsappLog(db: Database) {
  return async (m: TemplateMessage): Promise<string> => {
    const _id = keyedId('wa', m.callId, m.kind);
    await insertOnce(db.whatsappLog, {
      _id,
      workspace_id: m.workspaceId,
      call_id: m.callId,
      kind: m.kind,
      to: m.to,
      template_name: m.templateName,
      variables: m.variables,
      created_at: new Date(),
    });
    return _id;
  };
}

/** The email the log provider kept for an idempotency key (an invitation's interview id), or null. */
export function loggedEmail(db: Database, idempotencyKey: string) {
  return db.emailLog.findOne({ _id: keyedId('mail', idempotencyKey) });
}

type Address = { email: string; name?: string | null };
const shown = (a: Address) => (a.name ? `${a.name} <${a.email}>` : a.email);

export function emailLog(db: Database) {
  return async (m: {
    idempotencyKey: string;
    to: Address;
    from: Address;
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
  }): Promise<string> => {
    const _id = keyedId('mail', m.idempotencyKey);
    await insertOnce(db.emailLog, {
      _id,
      idempotency_key: m.idempotencyKey,
      to: shown(m.to),
      from: shown(m.from),
      subject: m.subject,
      text: m.text,
      html: m.html,
      headers: m.headers ?? {},
      created_at: new Date(),
    });
    return _id;
  };
}
