import type { Database } from '../infra/database';
import { insertOnce } from '../infra/duplicate-key';
import { keyedId } from '../infra/ids';
import { keyedStore } from '../infra/keyed-store';
import type { EmailLogDoc } from '../infra/documents/interviews';
import type { TemplateMessage } from '../shared/calls/whatsapp-templates';
import type { SimulatedCallDoc } from '../providers/voice/simulator';

type Address = { email: string; name?: string | null };
const shown = (a: Address) => (a.name ? `${a.name} <${a.email}>` : a.email);

export interface LoggedEmail {
  idempotencyKey: string;
  to: Address;
  from: Address;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/**
 * What the offline providers keep instead of a remote provider: the messages the log providers do not send
 * (`whatsapp_log`, `email_log`) and the calls the simulator places (`simulator_calls`). Each message is kept
 * once under an id derived from its key, however often its activity is retried, and that id is returned as
 * the provider's message id.
 */
export function providerLogStore(db: Database) {
  return {
    async keepWhatsApp(m: TemplateMessage): Promise<string> {
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
    },

    async keepEmail(m: LoggedEmail): Promise<string> {
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
    },

    /** The email kept for an idempotency key (an invitation's interview id), or null. */
    email: (idempotencyKey: string): Promise<EmailLogDoc | null> => db.emailLog.findOne({ _id: keyedId('mail', idempotencyKey) }),

    /** Forgets the call's kept WhatsApp messages, and its link's email (an erasure). */
    async forgetCall(callId: string): Promise<void> {
      await Promise.all((['pre_call', 'fallback'] as const).map((kind) => db.whatsappLog.deleteOne({ _id: keyedId('wa', callId, kind) })));
      await db.emailLog.deleteMany({ idempotency_key: `${callId}/link` });
    },

    /** Forgets the emails kept for the interview: its invitation, reminder and resends (an erasure). */
    async forgetInterview(interviewId: string): Promise<void> {
      await db.emailLog.deleteMany({ idempotency_key: { $regex: `^${interviewId}(/|$)` } });
    },

    /** The simulator's calls, by id (its storage port, providers/voice/simulator.ts). */
    simulatorCalls: keyedStore(db.db.collection<SimulatedCallDoc>('simulator_calls')),
  };
}

export type ProviderLogStore = ReturnType<typeof providerLogStore>;
