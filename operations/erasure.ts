import { erasedCall } from '../stores/calls';
import { erasedInterview } from '../stores/interviews';
import type { CallDoc } from '../infra/documents/calls';
import { conversationRecordingId, type InterviewDoc } from '../infra/documents/interviews';
import { normaliseEmail } from '../infra/people';
import { callView } from '../infra/views/calls';
import { interviewView } from '../infra/views/interviews';
import { ConflictError } from '../shared/errors';
import { FINAL_CALL_STATUSES } from '../shared/calls/schema';
import { SUPPRESSION_CHANNELS } from '../shared/suppressions/schema';
import type { ErasureCounts, ErasureTarget } from '../shared/erasure/schema';
import { keyedId } from '../infra/ids';
import type { CancelCall } from './call-cancel';
import type { OperationDeps } from './deps';

export type { ErasureCounts, ErasureTarget };

const FINAL = new Set(FINAL_CALL_STATUSES);
/** How long an erasure waits for a waiting call's workflow to cancel it (a signal and a write: well under a second). */
const SETTLE_MS = 10_000;
/** Calls whose attempt is under way: its report, with a transcript, is still to come. */
const UNDER_WAY = new Set(['in_progress', 'cancelling']);
const ENDED = new Set([...FINAL, 'expired']);

/**
 * Erases a person's data in a workspace (docs/erasure.md): their calls and interviews stay, counted by status,
 * with nothing of them left in them; so do the copies (the lists' snapshots, the webhook events' stored
 * bodies, the candidates, the provider reports, the providers' logs, the idempotent answers that hold them).
 * Recordings are deleted. The suppression list keeps an entry of hashes only, so they are not contacted again.
 * The person is found by candidate id, email and phone in the person index, by exact `_id`. A waiting call is
 * cancelled through the one cancel (`opted_out`), and an interview's workflow ended, so nothing more is sent
 * to, or written about, a person who is no longer there.
 */
export function erasure({ stores, workflows, config }: Pick<OperationDeps, 'stores' | 'workflows' | 'config'>, cancel: CancelCall) {
  const mine = <T extends { workspace_id: string; erased_at?: Date }>(workspaceId: string, d: T | null): d is T =>
    d?.workspace_id === workspaceId && !d.erased_at;

  /** The person's calls and interviews not erased yet, from the person index (exact `_id` reads only). */
  async function find(workspaceId: string, t: ErasureTarget): Promise<{ calls: CallDoc[]; interviews: InterviewDoc[] }> {
    const ids = await stores.candidates.findPerson(workspaceId, { candidateId: t.candidate_id, email: t.email, phone: t.phone });
    const [calls, interviews] = await Promise.all([
      Promise.all(ids.calls.map((id) => stores.calls.get(id))),
      Promise.all(ids.interviews.map((id) => stores.interviews.get(id))),
    ]);
    return { calls: calls.filter((c) => mine(workspaceId, c)), interviews: interviews.filter((i) => mine(workspaceId, i)) };
  }

  /**
   * A waiting call, cancelled through its workflow first, and read again once the cancel has taken and, unless
   * an attempt began meanwhile, once the call has ended: the erasure's write then never races the cancel's for
   * the call's place in the lists. A call-back or a dial that began after the person was found, before the
   * suppression filed first could refuse it (a race of milliseconds), shows as an attempt under way.
   */
  async function settled(call: CallDoc): Promise<CallDoc> {
    if (FINAL.has(call.status)) return call;
    const { outcome } = await cancel(call, 'opted_out', { until: 'taken', withinMs: SETTLE_MS });
    if (outcome !== 'cancelling') await workflows.cancelOutcome(call._id, 'ended', SETTLE_MS);
    return (await stores.calls.get(call._id)) ?? call;
  }

  async function eraseCall(call: CallDoc, at: Date): Promise<void> {
    const erased = await stores.calls.change(call, { set: { erased_at: at, ...erasedCall(call) } });
    await Promise.all([
      stores.callReports.forgetCall(call._id, call.attempts.length),
      stores.providerLogs.forgetCall(call._id),
      stores.candidates.erase(call.project_id, call.candidate_id),
    ]);
    const now = erased ?? (await stores.calls.get(call._id));
    if (now) await stores.webhooks.rewriteEvents(now, (sequence) => callView(now, config.PUBLIC_BASE_URL, sequence));
  }

  async function eraseInterview(interview: InterviewDoc, at: Date): Promise<number> {
    await workflows.endInterview(interview);
    const recordings = [
      ...(interview.answers ?? []).flatMap((a) => (a.recording ? [a.recording.id] : [])),
      // A live interview's conversation, whether or not its last session had pointed the interview at it yet.
      ...(interview.interview_mode === 'live' ? [conversationRecordingId(interview._id)] : []),
    ];
    const erased = await stores.interviews.change(interview, { set: { erased_at: at, ...erasedInterview(interview) } });
    const removed = await Promise.all(recordings.map((id) => stores.recordings.removeById(id)));
    await Promise.all([
      stores.interviews.forgetAnswers(interview),
      stores.providerLogs.forgetInterview(interview._id),
      stores.candidates.erase(interview.project_id, interview.candidate_id),
    ]);
    const now = erased ?? (await stores.interviews.get(interview._id));
    if (now) await stores.webhooks.rewriteEvents(now, (sequence) => interviewView(now, config.PUBLIC_BASE_URL, sequence));
    return removed.reduce((a: number, b) => a + b, 0);
  }

  /**
   * `allEndedBefore` (the retention sweep): the person is erased only when every call and interview found
   * ended before it, and otherwise kept whole (null). `erasureId` (a requested erasure's workflow): its
   * suppression entries are named by it, so a step run again files nothing twice. The suppression list comes
   * first, so nothing contacts the person from then on; a call with an attempt under way is then told to
   * cancel, and the erasure stops with a ConflictError until the attempt has ended (its report is still to
   * come), which its workflow waits out.
   */
  async function erase(
    workspaceId: string,
    target: ErasureTarget,
    opts: { allEndedBefore?: Date; erasureId?: string } = {},
  ): Promise<ErasureCounts | null> {
    const found = await find(workspaceId, target);
    if (opts.allEndedBefore && !allEnded(found, opts.allEndedBefore)) return null;
    const phones = new Set([target.phone, ...found.calls.map((c) => c.candidate.phone), ...found.interviews.map((i) => i.candidate.phone)]);
    const emails = new Set(
      [target.email, ...found.calls.map((c) => c.candidate.email), ...found.interviews.map((i) => i.candidate.email)].map((e) =>
        e ? normaliseEmail(e) : e,
      ),
    );
    const people = { phones: [...phones].filter((p): p is string => !!p), emails: [...emails].filter((e): e is string => !!e) };
    // The suppression list first: whatever happens next, the person is not contacted again.
    for (let n = 0; n < Math.max(people.phones.length, people.emails.length); n++) {
      await stores.suppressions.add({
        ...(opts.erasureId ? { id: keyedId('sup', workspaceId, 'erasure', opts.erasureId, String(n)) } : {}),
        workspaceId,
        phone: people.phones[n],
        email: people.emails[n],
        channels: SUPPRESSION_CHANNELS,
        source: 'erasure',
        reason: 'Erased at the workspace’s request',
      });
    }
    const busy = found.calls.filter((c) => UNDER_WAY.has(c.status));
    if (busy.length > 0) {
      // No retry after the attempt under way; its report ends it, and the erasure goes on then.
      await Promise.all(busy.map((c) => cancel(c, 'opted_out')));
      throw new ConflictError(`Call ${busy[0]._id} has an attempt under way; erase once it has ended`);
    }
    // Every call cancelled and read again before anything goes: one whose call-back or dial began as the
    // erasure did (after the person was found, before the suppression could refuse it) is waited out like any
    // attempt under way, so its report is forgotten and its provider copy deleted with the rest.
    const calls: CallDoc[] = [];
    for (const call of found.calls) calls.push(await settled(call));
    const started = calls.filter((c) => UNDER_WAY.has(c.status) || c.attempts.some((a) => a.ended_at === null));
    if (started.length > 0) throw new ConflictError(`Call ${started[0]._id} has an attempt under way; erase once it has ended`);
    // The provider's copies of the calls, asked for before the calls are blanked, so none is forgotten: the
    // workflow that deletes them is started (or found started) before anything of the calls goes.
    const copies = calls.flatMap((c) =>
      c.attempts.flatMap((a) => (a.provider_call_id ? [{ provider: a.provider, providerCallId: a.provider_call_id }] : [])),
    );
    await workflows.deleteProviderCopies(copies);
    // Claims named by the address itself, from before claims were keyed.
    const projects = [...new Set([...found.calls, ...found.interviews].map((r) => r.project_id))];
    await stores.candidates.forgetPlainEmailClaims(projects, people.emails);
    // The person's earlier entries stay in force, without their phone and email.
    await stores.suppressions.forgetPerson(workspaceId, people);
    const at = new Date();
    for (const call of calls) await eraseCall(call, at);
    let recordings = 0;
    for (const interview of found.interviews) recordings += await eraseInterview(interview, at);
    await stores.idempotency.forgetNaming(workspaceId, [target.candidate_id, ...people.phones, ...people.emails]);
    return { calls: found.calls.length, interviews: found.interviews.length, recordings, provider_deletions: copies.length };
  }

  return {
    erase,

    /**
     * POST /candidates/erase: the erasure as a durable workflow (workflows/erasure.ts), named by a document that
     * holds whom it erases until it ends, so no workflow history does. Waits up to ERASURE_ANSWER_WITHIN_MS for
     * its counts; null counts: it goes on (an attempt under way, or Temporal slow), and finishes on its own.
     */
    async request(workspaceId: string, target: ErasureTarget): Promise<{ erasureId: string; counts: ErasureCounts | null }> {
      const opened = await stores.erasures.open(workspaceId, target);
      const counts = await workflows.erase(opened._id, config.ERASURE_ANSWER_WITHIN_MS);
      return { erasureId: opened._id, counts };
    },

    /** The erasure's step (the workflow's one activity): run until it ends, then closed with its counts. */
    async runRequested(erasureId: string): Promise<ErasureCounts> {
      const opened = await stores.erasures.get(erasureId);
      if (!opened) throw new Error(`no erasure ${erasureId}`);
      if (opened.status === 'done' || !opened.target) return opened.counts ?? NOTHING;
      const counts = (await erase(opened.workspace_id, opened.target, { erasureId }))!;
      await stores.erasures.close(erasureId, counts);
      return counts;
    },
  };
}

const NOTHING: ErasureCounts = { calls: 0, interviews: 0, recordings: 0, provider_deletions: 0 };

/** Whether every call and interview ended, and last changed before `cutoff`. */
function allEnded(found: { calls: CallDoc[]; interviews: InterviewDoc[] }, cutoff: Date): boolean {
  return [...found.calls, ...found.interviews].every((r) => ENDED.has(r.status) && r.updated_at < cutoff);
}

export type Erasure = ReturnType<typeof erasure>;
