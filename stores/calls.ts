import type { Database } from '../infra/database';
import { callList } from '../infra/lists/calls';
import type { CallDoc } from '../infra/records/calls';
import { callAnnouncement } from '../infra/webhooks/resources';
import type { Announce } from '../infra/webhooks/events';
import { callMayMove } from '../shared/calls/transitions';
import type { CallStatus, MessageKind } from '../shared/calls/schema';
import type { CallEventType } from '../shared/webhooks/schema';
import { callMetering } from './metering';
import { resourceStore, type ResourceEvent, type ResourceStore } from './resource-store';

/** The calls' one door (stores/resource-store.ts): every write of a call goes through it. */
export type CallStore = ResourceStore<CallDoc, CallStatus, CallEventType>;

export function callStore({ db, announce }: { db: Database; announce?: Announce }): CallStore {
  return resourceStore<CallDoc, CallStatus, CallEventType>({
    name: 'call',
    collection: db.calls,
    list: callList(db),
    mayMove: callMayMove,
    announcement: callAnnouncement,
    announce,
    count: callMetering,
  });
}

/** The calls' lists, to read: a workspace's pages and change feed, and a job's entries. */
export function callPages(db: Database): Pick<CallStore, 'page' | 'entriesOfJob'> {
  const list = callList(db);
  return { page: (ws, q) => list.page(ws, q), entriesOfJob: (ws, job) => list.entriesOfJob(ws, job) };
}

/** A call's events, each with what tells it from another of its type. */
export const callEvents = {
  /** Once per attempt the call waits for: the first dial, and each retry. */
  scheduled: (call: CallDoc): ResourceEvent<CallEventType> => ({ type: 'call.scheduled', occurrence: call.attempts.length + 1 }),
  /** A contact rule moved the next dial (docs/contact-rules.md); `from`: when it was due, which tells each apart. */
  deferred: (from: number): ResourceEvent<CallEventType> => ({ type: 'call.scheduled', occurrence: `deferred/${from}` }),
  attemptEnded: (attempt: number): ResourceEvent<CallEventType> => ({ type: 'call.attempt.ended', occurrence: attempt }),
  ended: (status: 'completed' | 'failed' | 'cancelled'): ResourceEvent<CallEventType> => ({ type: `call.${status}`, occurrence: 'final' }),
  /** A WhatsApp message's sending (`sent` or `failed`) or a later delivery status. */
  message: (kind: MessageKind, status: string): ResourceEvent<CallEventType> => ({
    type: 'whatsapp.message.updated',
    occurrence: `${kind}/${status}`,
  }),
};
