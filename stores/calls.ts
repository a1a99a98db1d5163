import type { Database } from '../infra/database';
import { claimEach, claimOf, release } from '../infra/claims';
import { insertOnce, type WriteResult } from '../infra/duplicate-key';
import { callList } from '../infra/lists/calls';
import type { CallDoc } from '../infra/documents/calls';
import { callAnnouncement } from '../infra/webhooks/resources';
import type { Announce } from '../infra/webhooks/events';
import { callMayMove } from '../shared/calls/transitions';
import { FINAL_CALL_STATUSES, type CallStatus, type MessageKind } from '../shared/calls/schema';
import type { CallEventType } from '../shared/webhooks/schema';
import { callMetering } from './metering';
import { resourceStore, type ResourceEvent, type ResourceStore } from './resource-store';

/** The claim that lets a candidate have one active call per project at a time; its holder is the call. */
export const activeCallKey = (projectId: string, candidateId: string) => `call/${projectId}/${candidateId}`;
/**
 * What an erasure leaves of a call's fields about the person (operations/erasure.ts), and what the store writes
 * back over a change that lands on an erased call (stores/resource-store.ts).
 */
export function erasedCall(call: CallDoc): Partial<CallDoc> {
  const blank = (t: CallDoc['whatsapp']['pre_call']) => (t ? { ...t, variables: {} } : null);
  return {
    candidate: { name: '', email: '', phone: '', custom_fields: {} },
    first_message: '',
    instructions: '',
    transcript: null,
    extracted_variables: null,
    extraction_notes: [],
    whatsapp: { pre_call: blank(call.whatsapp.pre_call), fallback: blank(call.whatsapp.fallback) },
    attempts: call.attempts.map((a) => ({ ...a, recording_url: null })),
    messages: call.messages.map((m) => ({ ...m, variables: {} })),
  };
}
/** Where a WhatsApp message's delivery statuses find its call, by the provider's message id. */
const messageRefId = (providerMessageId: string) => `whatsapp/${providerMessageId}`;

/**
 * The calls' one door (stores/resource-store.ts): every write of a call goes through it. Beside its changes, it
 * keeps a candidate's one active call (a claim whose holder is the call, so the candidate's own document need
 * not repeat it) and finds a WhatsApp message's call by the provider's id.
 */
export interface CallStore extends ResourceStore<CallDoc, CallStatus, CallEventType> {
  get(id: string): Promise<CallDoc | null>;
  /** The workspace's call, or null: another workspace's is as missing as an unknown one. */
  owned(workspaceId: string, id: string): Promise<CallDoc | null>;
  /**
   * Claims each call's candidate for it, in one round trip: `written` when the call won, `duplicate` when the
   * candidate has an active call already (read it with `activeCallOf`), `error` when unknown.
   */
  claimCandidates(calls: CallDoc[]): Promise<WriteResult[]>;
  /** The candidate's active call in the project: its id and since when; null when the candidate is free. */
  activeCallOf(projectId: string, candidateId: string): Promise<{ callId: string; since: Date } | null>;
  /** Frees the call's candidate for a new call, if this call still holds it. */
  freeCandidate(call: Pick<CallDoc, '_id' | 'project_id' | 'candidate_id'>): Promise<void>;
  /** Where the delivery statuses of a sent WhatsApp message find its call. Filed once, however often asked. */
  fileMessage(providerMessageId: string, callId: string, kind: MessageKind, at: Date): Promise<void>;
  /** The call a WhatsApp message was sent for, by the provider's message id. */
  ofMessage(providerMessageId: string): Promise<CallDoc | null>;
  /**
   * The candidate ids of the workspace's calls that ended, not erased, and last changed before `cutoff` (the
   * daily retention sweep: MongoDB's index; FerretDB reads through, once a day).
   */
  candidatesEndedBefore(workspaceId: string, cutoff: Date): Promise<string[]>;
}

export function callStore({
  db,
  announce,
  publicBaseUrl,
  partnerChanged,
}: {
  db: Database;
  announce: Announce;
  /** Where the candidate's link of a call is (its view's `candidate_url`). */
  publicBaseUrl: string;
  partnerChanged?: (assessmentId: string) => Promise<void>;
}): CallStore {
  const get = (id: string) => db.calls.findOne({ _id: id });
  return {
    ...resourceStore<CallDoc, CallStatus, CallEventType>({
      name: 'call',
      collection: db.calls,
      list: callList(db),
      mayMove: callMayMove,
      announcement: (call, key) => callAnnouncement(call, publicBaseUrl, key),
      announce,
      partnerChanged,
      erasedForm: erasedCall,
      count: callMetering,
    }),
    get,
    async owned(workspaceId, id) {
      const call = await get(id);
      return call?.workspace_id === workspaceId ? call : null;
    },
    claimCandidates: (calls) =>
      claimEach(
        db,
        calls.map((call) => ({ key: activeCallKey(call.project_id, call.candidate_id), holder: call._id })),
      ),
    async activeCallOf(projectId, candidateId) {
      const held = await claimOf(db, activeCallKey(projectId, candidateId));
      return held && { callId: held.holder, since: held.created_at };
    },
    freeCandidate: (call) => release(db, activeCallKey(call.project_id, call.candidate_id), call._id),
    fileMessage: (providerMessageId, callId, kind, at) =>
      insertOnce(db.providerRefs, { _id: messageRefId(providerMessageId), call_id: callId, kind, created_at: at }),
    async ofMessage(providerMessageId) {
      const ref = await db.providerRefs.findOne({ _id: messageRefId(providerMessageId) });
      return ref ? get(ref.call_id) : null;
    },
    async candidatesEndedBefore(workspaceId, cutoff) {
      const old = { workspace_id: workspaceId, erased_at: { $exists: false }, updated_at: { $lt: cutoff } };
      const ended = await db.calls
        .find({ ...old, status: { $in: FINAL_CALL_STATUSES as CallStatus[] } }, { projection: { candidate_id: 1 } })
        .toArray();
      return ended.map((c) => c.candidate_id);
    },
  };
}

/** A call's events, each with what tells it from another of its type. */
export const callEvents = {
  /** Once per attempt the call waits for: the first dial, and each retry. */
  scheduled: (call: CallDoc): ResourceEvent<CallEventType> => ({ type: 'call.scheduled', occurrence: call.attempts.length + 1 }),
  /** A contact rule moved the next dial (docs/contact-rules.md); `from`: when it was due, which tells each apart. */
  deferred: (from: number): ResourceEvent<CallEventType> => ({ type: 'call.scheduled', occurrence: `deferred/${from}` }),
  attemptEnded: (attempt: number): ResourceEvent<CallEventType> => ({ type: 'call.attempt.ended', occurrence: attempt }),
  ended: (status: 'completed' | 'failed' | 'cancelled' | 'declined'): ResourceEvent<CallEventType> => ({
    type: `call.${status}`,
    occurrence: 'final',
  }),
  /** The candidate's `n`th move of the next dial on their link. */
  rescheduled: (n: number): ResourceEvent<CallEventType> => ({ type: 'call.rescheduled', occurrence: n }),
  /** A WhatsApp message's sending (`sent` or `failed`) or a later delivery status. */
  message: (kind: MessageKind, status: string): ResourceEvent<CallEventType> => ({
    type: 'whatsapp.message.updated',
    occurrence: `${kind}/${status}`,
  }),
};
