import type { Database } from '../infra/database';
import { keyedId } from '../infra/ids';
import type { CallDoc } from '../infra/records/calls';
import type { InterviewDoc } from '../infra/records/interviews';
import { callReportId } from '../infra/records/call-reports';
import { answerId } from '../infra/records/interview-answers';
import { recordId } from '../infra/records/projects';
import { removeRecording } from '../infra/recordings';
import { suppressionLedger } from '../infra/suppressions';
import { callView } from '../infra/views/calls';
import { interviewView } from '../infra/views/interviews';
import { eventId, sequenceOf, type Announce } from '../infra/webhooks/events';
import { ConflictError } from '../shared/errors';
import { FINAL_CALL_STATUSES } from '../shared/calls/schema';
import { normalizeEmail, SUPPRESSION_CHANNELS } from '../shared/suppressions/schema';
import { personIndex } from '../infra/person-index';
import { callStore } from './calls';
import { interviewStore } from './interviews';

/** Who to erase in a workspace: the ATS's candidate id, an email, a phone; any of them matches. */
export interface ErasureTarget {
  candidate_id?: string;
  email?: string;
  phone?: string;
}

export interface ErasureCounts {
  calls: number;
  interviews: number;
  recordings: number;
}

/** What an erasure asks of the running workflows, done by their owners (composition/erasure.ts). */
export interface ErasureStops {
  /** Cancels a call that has not started an attempt (`opted_out`), as an opt-out does. */
  cancelCall(call: CallDoc): Promise<void>;
  /** Ends an interview's workflow, so nothing more is sent or written for it. */
  endInterview(interview: InterviewDoc): Promise<void>;
}

const ERASED_NAME = '';
const FINAL = new Set(FINAL_CALL_STATUSES);
/** How long an erasure waits for a waiting call's workflow to cancel it (a signal and a write: well under a second). */
const SETTLE_MS = 10_000;
/** Calls whose attempt is under way: its report, with a transcript, is still to come. */
const UNDER_WAY = new Set(['in_progress', 'cancelling']);

/**
 * Erases a person's data in a workspace (docs/erasure.md): their calls and interviews stay, counted by status,
 * with nothing of them left in them; so do the copies (the lists' snapshots, the webhook events' stored
 * bodies, the candidate records, the provider reports, the message logs, the idempotent answers that hold
 * them). Recordings are deleted. The ledger keeps a suppression of hashes only, so they are not contacted again.
 * The records are found by candidate id, email and phone in the person index (infra/person-index.ts), by
 * exact `_id`.
 */
export function erasure(deps: { db: Database; announce?: Announce; publicBaseUrl: string }, stops: ErasureStops) {
  const { db } = deps;
  const calls = callStore(deps);
  const interviews = interviewStore(deps);

  /** The person's calls and interviews not erased yet, from the person index (exact `_id` reads only). */
  async function find(workspaceId: string, t: ErasureTarget): Promise<{ calls: CallDoc[]; interviews: InterviewDoc[] }> {
    const ids = await personIndex(db).recordsOf(workspaceId, { candidateId: t.candidate_id, email: t.email, phone: t.phone });
    const mine = <T extends { workspace_id: string; erased_at?: Date }>(d: T | null): d is T =>
      d?.workspace_id === workspaceId && !d.erased_at;
    const [calls, interviews] = await Promise.all([
      Promise.all(ids.calls.map((id) => db.calls.findOne({ _id: id }))),
      Promise.all(ids.interviews.map((id) => db.interviews.findOne({ _id: id }))),
    ]);
    return { calls: calls.filter(mine), interviews: interviews.filter(mine) };
  }

  /** Rewrites the stored bodies of a resource's webhook events with the resource as it is now (erased). */
  async function rewriteEvents(resourceId: string, sequence: number, view: (sequence: number) => unknown): Promise<void> {
    await Promise.all(
      Array.from({ length: sequence }, async (_, n) => {
        const id = eventId(resourceId, n + 1);
        const event = await db.webhookEvents.findOne({ _id: id });
        if (!event) return;
        const body = { ...(JSON.parse(event.body) as Record<string, unknown>), data: view(n + 1) };
        await db.webhookEvents.updateOne({ _id: id }, { $set: { body: JSON.stringify(body) } });
      }),
    );
  }

  /**
   * A waiting call, cancelled through its workflow first, and read again once it has ended: the erasure's
   * write then never races the cancel's for the call's place in the lists.
   */
  async function ended(call: CallDoc): Promise<CallDoc> {
    if (FINAL.has(call.status)) return call;
    await stops.cancelCall(call);
    for (let waited = 0; waited < SETTLE_MS; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await db.calls.findOne({ _id: call._id });
      if (!now || FINAL.has(now.status)) return now ?? call;
    }
    return (await db.calls.findOne({ _id: call._id })) ?? call;
  }

  async function eraseCall(waiting: CallDoc, at: Date): Promise<void> {
    const call = await ended(waiting);
    const blank = (t: CallDoc['whatsapp']['pre_call']) => (t ? { ...t, variables: {} } : null);
    const erased = await calls.change(call, {
      set: {
        erased_at: at,
        candidate: { name: ERASED_NAME, email: '', phone: '', custom_fields: {} },
        first_message: '',
        instructions: '',
        transcript: null,
        extracted_variables: null,
        extraction_notes: [],
        whatsapp: { pre_call: blank(call.whatsapp.pre_call), fallback: blank(call.whatsapp.fallback) },
        attempts: call.attempts.map((a) => ({ ...a, recording_url: null })),
        messages: call.messages.map((m) => ({ ...m, variables: {} })),
      },
    });
    await Promise.all([
      ...call.attempts.map((a) => db.callReports.deleteOne({ _id: callReportId(call._id, a.number) })),
      ...(['pre_call', 'fallback'] as const).map((kind) => db.whatsappLog.deleteOne({ _id: keyedId('wa', call._id, kind) })),
      db.candidates.updateOne(
        { _id: recordId.candidate(call.project_id, call.candidate_id) },
        { $set: { name: ERASED_NAME, email: '', phone: null, custom_fields: {} } },
      ),
    ]);
    const now = erased ?? (await db.calls.findOne({ _id: call._id }));
    if (now) await rewriteEvents(call._id, sequenceOf(now), (sequence) => callView(now, sequence));
  }

  async function eraseInterview(interview: InterviewDoc, at: Date): Promise<number> {
    await stops.endInterview(interview);
    const recordings = (interview.answers ?? []).flatMap((a) => (a.recording ? [a.recording.id] : []));
    const erased = await interviews.change(interview, {
      set: {
        erased_at: at,
        candidate: { name: ERASED_NAME, email: '', phone: null },
        answers: [],
        assessment: null,
      },
    });
    const removed = await Promise.all(
      recordings.map(async (id) => {
        const recording = await db.recordings.findOne({ _id: id });
        if (recording) await removeRecording(db, recording);
        return recording ? 1 : 0;
      }),
    );
    await Promise.all([
      ...(interview.questions ?? []).map((_, n) => db.interviewAnswers.deleteOne({ _id: answerId(interview._id, n) })),
      db.emailLog.deleteMany({ idempotency_key: { $regex: `^${interview._id}(/|$)` } }),
      db.candidates.updateOne(
        { _id: recordId.candidate(interview.project_id, interview.candidate_id) },
        { $set: { name: ERASED_NAME, email: '', phone: null, custom_fields: {} } },
      ),
    ]);
    const now = erased ?? (await db.interviews.findOne({ _id: interview._id }));
    if (now) await rewriteEvents(interview._id, sequenceOf(now), (sequence) => interviewView(now, deps.publicBaseUrl, sequence));
    return removed.reduce((a: number, b) => a + b, 0);
  }

  return {
    /**
     * `allEndedBefore` (the retention sweep): the person is erased only when every record found ended before
     * it, and otherwise kept whole (null).
     */
    async erase(workspaceId: string, target: ErasureTarget, opts: { allEndedBefore?: Date } = {}): Promise<ErasureCounts | null> {
      const found = await find(workspaceId, target);
      if (opts.allEndedBefore && !allEnded(found, opts.allEndedBefore)) return null;
      const busy = found.calls.find((c) => UNDER_WAY.has(c.status));
      if (busy) throw new ConflictError(`Call ${busy._id} has an attempt under way; erase once it has ended`);
      const phones = new Set([
        target.phone,
        ...found.calls.map((c) => c.candidate.phone),
        ...found.interviews.map((i) => i.candidate.phone),
      ]);
      const emails = new Set(
        [target.email, ...found.calls.map((c) => c.candidate.email), ...found.interviews.map((i) => i.candidate.email)].map((e) =>
          e ? normalizeEmail(e) : e,
        ),
      );
      const people = { phones: [...phones].filter((p): p is string => !!p), emails: [...emails].filter((e): e is string => !!e) };
      // The ledger first: whatever happens next, the person is not contacted again.
      const ledger = suppressionLedger(db);
      for (let n = 0; n < Math.max(people.phones.length, people.emails.length); n++) {
        await ledger.add({
          workspaceId,
          phone: people.phones[n],
          email: people.emails[n],
          channels: SUPPRESSION_CHANNELS,
          source: 'erasure',
          reason: 'Erased at the workspace’s request',
        });
      }
      const at = new Date();
      for (const call of found.calls) await eraseCall(call, at);
      let recordings = 0;
      for (const interview of found.interviews) recordings += await eraseInterview(interview, at);
      await forgetAnswers(db, workspaceId, [target.candidate_id, ...people.phones, ...people.emails]);
      return { calls: found.calls.length, interviews: found.interviews.length, recordings };
    },
  };
}

const ENDED = new Set([...FINAL, 'expired']);
/** Whether every record ended, and last changed before `cutoff`. */
function allEnded(found: { calls: CallDoc[]; interviews: InterviewDoc[] }, cutoff: Date): boolean {
  return [...found.calls, ...found.interviews].every((r) => ENDED.has(r.status) && r.updated_at < cutoff);
}

/**
 * Deletes the workspace's kept idempotent answers that name the person (a call/initiate or invite answer lists
 * each candidate's name, email and phone). A retry with one of those keys then runs again, and meets the
 * erasure's suppression.
 */
async function forgetAnswers(db: Database, workspaceId: string, values: Array<string | undefined>): Promise<void> {
  const needles = values.filter((v): v is string => !!v).map((v) => JSON.stringify(v));
  if (needles.length === 0) return;
  const kept = await db.idempotencyKeys.find({ workspace_id: workspaceId }, { projection: { _id: 1, body: 1 } }).toArray();
  const naming = kept.filter((k) => needles.some((n) => k.body.toLowerCase().includes(n.toLowerCase()))).map((k) => k._id);
  await Promise.all(naming.map((id) => db.idempotencyKeys.deleteOne({ _id: id })));
}
