import type { OperationDeps } from './deps';
import { newId } from '../infra/ids';
import { expiresAtOf, type InterviewDoc } from '../infra/documents/interviews';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { ConflictError, NotFoundError, RateLimitedError } from '../shared/errors';
import { expiryAfter, hasExpired, RESEND_COOLDOWN_SECONDS } from '../shared/interviews/deadlines';
import type { InterviewStatus } from '../shared/interviews/schema';

const REFUSED: Partial<Record<InterviewStatus, string>> = {
  queued: 'The invitation is still being sent; resend it once its status is invited',
  failed: 'The invitation failed, so there is no link to resend; invite the candidate again',
  completed: 'The candidate has finished this interview; there is nothing to resend',
};

/**
 * POST /interviews/:id/resend: the link goes out again, and an expired one opens for the default period
 * again. The interview's workflow sends the email (durably, once); this records the request and signals it.
 * One resend per interview a minute: a claim whose lease is the cooldown, so two at once cannot both pass.
 */
export function interviewResend({ stores, workflows }: Pick<OperationDeps, 'stores' | 'workflows'>) {
  return (workspace: Readonly<WorkspaceDoc>, interviewId: string) => resend({ stores, workflows }, workspace, interviewId);
}

async function resend(
  { stores, workflows }: Pick<OperationDeps, 'stores' | 'workflows'>,
  workspace: Readonly<WorkspaceDoc>,
  interviewId: string,
): Promise<InterviewDoc> {
  const { interviews } = stores;
  const interview = await interviews.owned(workspace._id, interviewId);
  if (!interview) throw new NotFoundError('Interview not found');
  const refused = REFUSED[interview.status];
  if (refused) throw new ConflictError(refused);
  const now = new Date();
  const holder = newId('rsd');
  if (!(await interviews.claimResend(interview._id, holder, new Date(now.getTime() + RESEND_COOLDOWN_SECONDS * 1_000), now))) {
    throw new RateLimitedError(RESEND_COOLDOWN_SECONDS, 'This interview was resent less than a minute ago; try again in a minute');
  }
  const expired = interview.status === 'expired' || hasExpired(expiresAtOf(interview), now);
  const next: Pick<InterviewDoc, 'status' | 'expires_at' | 'resend'> = {
    // An expired interview opens again where the candidate left it.
    status: expired ? (interview.started_at ? 'started' : 'invited') : interview.status,
    expires_at: expired ? expiryAfter(now) : expiresAtOf(interview),
    resend: { requested_at: now, sent_at: null, error: null },
  };
  const { status, ...set } = next;
  const resent = (await interviews.change(interview, { to: status, set })) ?? { ...interview, ...next };
  try {
    await workflows.interviewChanged(resent, { reopen: true });
  } catch (err) {
    // The workflow did not hear of it: the request is taken back whole, so a retry is not refused as too soon.
    const before = { expires_at: expiresAtOf(interview), resend: interview.resend ?? null };
    await interviews.change(resent, { to: interview.status, set: before }).catch(() => undefined);
    await interviews.releaseResend(interview._id, holder).catch(() => undefined);
    throw err;
  }
  return resent;
}
