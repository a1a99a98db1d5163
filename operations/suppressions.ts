import { keyedId } from '../infra/ids';
import type { SuppressionDoc } from '../infra/documents/suppressions';
import { whatsAppNumberForms } from '../infra/people';
import type { NewSuppression } from '../stores/suppressions';
import { ConflictError, NotFoundError } from '../shared/errors';
import type { OperationDeps } from './deps';

/**
 * Filing suppressions, from wherever they come: the API, a WhatsApp STOP, an email's unsubscribe link, the
 * interview page (an erasure files its own, and stops its calls itself). An entry is in force once filed:
 * every dial, message and email reads the list right before it goes out. Entries that refuse voice then start
 * the workflow that cancels the person's waiting calls now (workflows/suppressions.ts), rather than at their
 * next contact; when Temporal cannot be reached the filing still stands, and a waiting call stops at its next
 * contact instead.
 */
export function suppressionFiling({ stores, workflows, logger }: Pick<OperationDeps, 'stores' | 'workflows' | 'logger'>) {
  async function stopCalls(entries: SuppressionDoc[]): Promise<void> {
    const ids = entries.filter((e) => e.channels.includes('voice')).map((e) => e._id);
    if (ids.length === 0) return;
    try {
      await workflows.stopCallsOf(ids);
    } catch (err) {
      logger.warn({ err, suppressionIds: ids }, 'suppression workflow not started; waiting calls stop at their next contact');
    }
  }

  async function file(...entries: NewSuppression[]): Promise<SuppressionDoc[]> {
    const filed: SuppressionDoc[] = [];
    for (const entry of entries) filed.push(await stores.suppressions.add(entry));
    await stopCalls(filed);
    return filed;
  }

  return {
    file,

    /**
     * Takes an entry of the workspace out of the list, which lifts it: the phone and email are refused only for
     * what other entries still cover. Only entries the workspace filed itself (`source: "api"`) may be: the
     * others are the person's own (a STOP, an unsubscribe, the interview page, an erasure), which only they
     * can undo.
     */
    async lift(workspaceId: string, id: string): Promise<void> {
      const entry = await stores.suppressions.get(workspaceId, id);
      if (!entry) throw new NotFoundError('Suppression not found');
      if (entry.source !== 'api')
        throw new ConflictError(
          `This entry was filed by the person (source "${entry.source}"), not through the API, so only they can undo it; it stays in force`,
        );
      await stores.suppressions.remove(entry);
    },

    /**
     * A WhatsApp STOP (or any of the stop words) from a phone revokes consent to calls and messages (the FCC's
     * revocation rule covers both) in every workspace that has a candidate with the phone, in any of the forms
     * WhatsApp and an ATS write it (infra/people.ts), since an inbound message names no workspace. The workspaces
     * are found by the candidates' phone (MongoDB's `by_phone` index; FerretDB reads the candidates through, once
     * a form, as a STOP is rare). The entries' ids come from the message's, so
     * Meta's redelivery of it files nothing twice. Returns how many workspaces.
     */
    async fileWhatsAppStop(message: { id: string; phone: string; text: string; toNumberId?: string }): Promise<number> {
      // A STOP to a workspace's own number is that workspace's alone; one to the service's shared number is
      // filed in every workspace that knows the phone.
      const owner = message.toNumberId ? await stores.workspaces.ofNumber('whatsapp', message.toNumberId) : null;
      // The sender's wa_id may be another form of the number the candidates are stored under: each form is
      // looked up, and the entry files the number as stored, so the list refuses what the calls dial.
      const filings: NewSuppression[] = [];
      const workspaces = new Set<string>();
      for (const phone of whatsAppNumberForms(message.phone)) {
        const known = await stores.candidates.workspacesOfPhone(phone);
        // To its own number, the sender's form is filed even where the workspace does not know it (yet).
        const filedIn = owner ? (known.includes(owner) || phone === message.phone ? [owner] : []) : known;
        for (const workspaceId of filedIn) {
          workspaces.add(workspaceId);
          filings.push({
            // The sender's own form keeps the id it always had, so Meta's redelivery files nothing twice.
            id:
              phone === message.phone
                ? keyedId('sup', workspaceId, 'whatsapp', message.id)
                : keyedId('sup', workspaceId, 'whatsapp', message.id, phone),
            workspaceId,
            phone,
            channels: ['voice', 'whatsapp'],
            source: 'whatsapp',
            reason: `WhatsApp reply: ${message.text.trim().slice(0, 40)}`,
          });
        }
      }
      await file(...filings);
      return workspaces.size;
    },
  };
}

export type SuppressionFiling = ReturnType<typeof suppressionFiling>;
