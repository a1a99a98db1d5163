import { interviewEvent } from '../stores/interviews';
import { candidateEmail, sendEmailOnce, type EmailOutcome } from './candidate-emails';
import type { Stores } from '../stores';
import type { LimitDecision } from '../stores/limits';
import { ApplicationFailure } from '@temporalio/activity';
import { expiresAtOf, type InterviewDoc } from '../infra/documents/interviews';
import { companyOf, type ProjectDoc } from '../infra/documents/projects';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { newId } from '../infra/ids';
import { composeInvitation, type InvitationKind } from '../shared/interviews/invitation-email';
import type { InterviewStatus } from '../shared/interviews/schema';
import type { EmailMessage } from '../providers/email/port';
import { interviewUrl } from '../shared/public-urls';
import { DEFAULT_QUESTION_COUNT } from '../shared/interviews/question-generator';
import type { Question } from '../shared/jobs/schema';
import { providerFailureText, UpstreamError } from '../shared/errors';
import { asActivityFailure } from './provider-failures';
import type { ActivityDeps } from './deps';
import { maskedRefusal, withoutAddresses } from '../shared/address-masking';

/** How long a question-generation claim holds before another invitation may take it over. */
export const QUESTION_LEASE_MS = 3 * 60_000;
/** The pauses between looks at a set another invitation is generating: about 6 s, eight reads. */
const QUESTION_SET_LOOKS_MS = [50, 100, 200, 400, 800, 1_500, 3_000];

/**
 * Interview side effects. Each is idempotent: a retried or replayed activity leaves the same state. Every read
 * and write is an exact `_id` match, with conditions checked in code after the read (one execution of an
 * activity per invitation runs at a time; on FerretDB an extra filter field would scan every interview).
 */
export function createInterviewActivities({ stores, logger, clock, llm }: Pick<ActivityDeps, 'stores' | 'logger' | 'clock' | 'llm'>) {
  const { interviews, projects } = stores;
  const load = (interviewId: string) => loadInterview(stores, interviewId);
  const loadProject = (projectId: string) => loadInterviewProject(stores, projectId);

  /**
   * While another invitation generates the project's set: looks again a few times over a few seconds, so the
   * set a fast model makes in milliseconds is picked up here rather than after a workflow timer, a workflow
   * task and a new activity for each of a batch's invitations; null when the set is still not there.
   */
  async function awaitQuestionSet(projectId: string): Promise<Question[] | null> {
    for (const waitMs of QUESTION_SET_LOOKS_MS) {
      const set = (await loadProject(projectId)).question_set;
      if (set) return set.questions;
      await new Promise((r) => setTimeout(r, waitMs));
    }
    return (await loadProject(projectId)).question_set?.questions ?? null;
  }

  /**
   * The project's generated questions, generated at most once: the first invitation claims generation with a
   * lease (taken over if its worker dies); the others look again for a few seconds, then get null and wait on a
   * workflow timer before looking again.
   */
  async function projectQuestions(projectId: string): Promise<Question[] | null> {
    const current = await loadProject(projectId);
    if (current.question_set) return current.question_set.questions;
    const claimId = newId('gen');
    const now = clock();
    let taken: LimitDecision | null = null;
    if (!(await projects.claimQuestions(projectId, claimId, new Date(now.getTime() + QUESTION_LEASE_MS), now))) {
      return awaitQuestionSet(projectId);
    }
    try {
      // The previous holder may have finished between the first look and the claim.
      const latest = await loadProject(projectId);
      if (latest.question_set) return latest.question_set.questions;
      // A model call, so it takes from the workspace's AI limit like POST /ai/generate-questions: with none
      // left, the invitation waits on its workflow's timer and tries again (accepted work is not refused). At
      // the limit's own time, as the API counts it.
      taken = await stores.limits.ai.take(`${latest.workspace_id}/generate-questions`);
      if (!taken.allowed) {
        logger.info({ projectId, retryAfterSeconds: taken.retryAfterSeconds }, 'question generation waits for the AI limit');
        return null;
      }
      const questions = await llm.generateQuestions(latest.job!, DEFAULT_QUESTION_COUNT);
      await projects.change(latest, { question_set: { questions, provider: llm.name, generated_at: clock() } });
      logger.info({ projectId, provider: llm.name, count: questions.length }, 'interview questions generated');
      return questions;
    } catch (err) {
      // A model that is down gives back what it was not used for; one that declined keeps its cost.
      if (taken?.taken && (!(err instanceof UpstreamError) || err.retryable)) await stores.limits.ai.giveBack(taken).catch(() => undefined);
      if (err instanceof UpstreamError) {
        const code = err.detail.code ?? err.detail.status;
        logger.warn({ projectId, code, retryable: err.retryable, error: err.message }, 'question generation failed');
        throw asActivityFailure(err, 'LanguageModel');
      }
      throw err;
    } finally {
      // Given back at once, so the next attempt, this one's or another invitation's, need not wait out the lease.
      await projects.releaseQuestions(projectId, claimId);
    }
  }

  return {
    /**
     * Fixes the interview's questions, the caller's own or the project's generated set, and returns their
     * number; null while another invitation of the project is generating the set.
     */
    async prepareInterview(interviewId: string): Promise<number | null> {
      const interview = await load(interviewId);
      if (interview.questions) return interview.questions.length;
      const questions = interview.custom_questions ?? (await projectQuestions(interview.project_id));
      if (!questions) return null;
      await interviews.change(interview, { set: { questions } });
      return questions.length;
    },

    /**
     * Ends an invitation that could not be completed; an email still pending will not be sent and says why. The
     * interview's status as the change left it (the workflow shows it operators).
     */
    async failInterview(interviewId: string, stage: 'questions' | 'email', error: string): Promise<InterviewStatus> {
      const interview = await load(interviewId);
      // An invitation whose email went out keeps its status; the event still tells of the failed step.
      const failing = interview.status !== 'invited';
      // An email that failed keeps the provider's last error; one never attempted says why it was not sent.
      const emailError = stage === 'questions' ? { 'email.error': 'Not sent: the interview questions could not be prepared' } : {};
      const emailStatus = interview.email.status === 'pending' ? { 'email.status': 'failed' as const, ...emailError } : {};
      const changed = await interviews.change(interview, {
        to: failing ? 'failed' : undefined,
        events: [interviewEvent('interview.failed', interview)],
        set: { ...(failing ? { error } : {}), ...emailStatus },
      });
      return changed?.status ?? (failing ? 'failed' : interview.status);
    },
  };
}

/**
 * Emails the interview link once: the delivery, and the interview as it stands after it (as the write left
 * it, with `interview.invited` recorded and announced when sent). A recorded send is never repeated, and
 * `earlier` says so (its announcement may not have gone out); a provider's final refusal marks the email
 * failed; anything thrown is retried by Temporal, with the last error kept for GET /interviews/:id.
 */
export async function sendInvitationEmail(
  deps: Pick<ActivityDeps, 'stores' | 'logger' | 'clock' | 'email' | 'publicBaseUrl' | 'emailFrom'>,
  interview: InterviewDoc,
  workspace?: Readonly<WorkspaceDoc> | null,
): Promise<{ delivery: 'sent' | 'failed'; interview: InterviewDoc; earlier: boolean }> {
  const { stores, logger, clock, email } = deps;
  const { interviews } = stores;
  // An email of unknown outcome may have gone: the invitation goes on as a sent one does.
  if (interview.email.status !== 'pending')
    return { delivery: interview.email.status === 'failed' ? 'failed' : 'sent', interview, earlier: true };
  // The suppression list, read right before the send: an email suppressed since the invitation was accepted gets none.
  if (await emailSuppressed(stores, interview, workspace)) {
    const item = await interviews.change(interview, {
      to: 'failed',
      set: {
        error: EMAIL_SUPPRESSED,
        email: { status: 'failed', provider: email.name, message_id: null, sent_at: null, error: EMAIL_SUPPRESSED },
      },
    });
    return { delivery: 'failed', interview: item ?? interview, earlier: false };
  }
  const message = await linkEmail(deps, interview, 'invitation', workspace);
  let result: EmailOutcome;
  try {
    result = await sendEmailOnce(deps, { idempotencyKey: interview._id, ...message });
  } catch (err) {
    // The client reads who failed and how; the provider's own words go to the log.
    const error = err instanceof UpstreamError ? providerFailureText(err) : 'The email could not be sent';
    // Masked as every provider's words are: an email provider's error may quote the address back.
    const words = withoutAddresses((err as Error).message);
    logger.warn({ interviewId: interview._id, provider: email.name, error: words }, 'invitation email not sent; retried');
    await interviews.change(interview, { set: { 'email.provider': email.name, 'email.error': error } });
    // Retried by Temporal either way; the provider's words stay in the failure's details, for the Temporal UI.
    throw err instanceof UpstreamError
      ? asActivityFailure(err, 'Email')
      : ApplicationFailure.create({ message: error, type: 'Email', details: [words] });
  }
  const now = clock();
  if (result.sent === 'unknown') {
    // It may have gone, so it is not sent again, and the candidate may have their link: invited, as when sent.
    logger.warn({ interviewId: interview._id, provider: email.name }, 'invitation email of unknown outcome; not sent again');
    const item = await interviews.change(interview, {
      to: 'invited',
      events: [interviewEvent('interview.invited', interview)],
      set: { email: { status: 'unknown', provider: email.name, message_id: null, sent_at: null, error: result.error } },
    });
    return { delivery: 'sent', interview: item ?? (await loadInterview(stores, interview._id)), earlier: false };
  }
  if (result.sent) {
    const item = await interviews.change(interview, {
      to: 'invited',
      events: [interviewEvent('interview.invited', interview)],
      set: { email: { status: 'sent', provider: email.name, message_id: result.messageId, sent_at: now, error: null } },
    });
    return { delivery: 'sent', interview: item ?? (await loadInterview(stores, interview._id)), earlier: false };
  }
  logger.warn(
    { interviewId: interview._id, provider: email.name, error: maskedRefusal(result.error), detail: maskedRefusal(result.detail) },
    'invitation email refused',
  );
  const item = await interviews.change(interview, {
    to: 'failed',
    set: {
      error: 'The invitation email could not be delivered',
      email: { status: 'failed', provider: email.name, message_id: null, sent_at: null, error: result.error },
    },
  });
  return { delivery: 'failed', interview: item ?? interview, earlier: false };
}

export const EMAIL_SUPPRESSED = "Not sent: the candidate opted out of emails (the workspace's suppression list)";

/** Whether the workspace's suppression list refuses email to the interview's candidate, as it is now. */
export async function emailSuppressed(
  stores: Pick<Stores, 'workspaces' | 'suppressions'>,
  interview: InterviewDoc,
  workspace?: Readonly<WorkspaceDoc> | null,
): Promise<boolean> {
  const ws = workspace === undefined ? await stores.workspaces.get(interview.workspace_id) : workspace;
  const refused = await stores.suppressions.channelsFor(ws, { email: interview.candidate.email, phone: interview.candidate.phone });
  return refused.has('email');
}

/** An interview by id; one that does not exist fails the activity for good (its request took it back). */
export async function loadInterview(stores: Pick<Stores, 'interviews'>, interviewId: string): Promise<InterviewDoc> {
  const interview = await stores.interviews.get(interviewId);
  if (!interview) throw ApplicationFailure.nonRetryable(`Interview ${interviewId} does not exist`, 'InterviewNotFound');
  return interview;
}

/** An interview's project, with its job: a shared read (stores/projects.ts), not to be changed. */
export async function loadInterviewProject(
  stores: Pick<Stores, 'projects'>,
  projectId: string,
): Promise<Readonly<ProjectDoc & { job: NonNullable<ProjectDoc['job']> }>> {
  const project = await stores.projects.get(projectId);
  if (!project?.job) throw ApplicationFailure.nonRetryable(`Interview project ${projectId} does not exist`, 'ProjectNotFound');
  return project as Readonly<ProjectDoc & { job: NonNullable<ProjectDoc['job']> }>;
}

/**
 * The email with an interview's link, of any kind (invitation, reminder, resend), addressed and tagged; the
 * caller adds the idempotency key, one per email meant. `workspace`: the interview's, when the caller read it
 * already.
 */
export async function linkEmail(
  deps: Pick<ActivityDeps, 'stores' | 'publicBaseUrl' | 'emailFrom'>,
  interview: InterviewDoc,
  kind: InvitationKind,
  known?: Readonly<WorkspaceDoc> | null,
): Promise<Omit<EmailMessage, 'idempotencyKey'>> {
  const { stores, publicBaseUrl } = deps;
  const [project, workspace] = await Promise.all([
    loadInterviewProject(stores, interview.project_id),
    known === undefined ? stores.workspaces.get(interview.workspace_id) : known,
  ]);
  const companyName = companyOf(project, workspace) ?? 'our company';
  const compose = (unsubscribe: string) =>
    composeInvitation({
      kind,
      candidateName: interview.candidate.name,
      jobTitle: project.job.title,
      companyName,
      interviewUrl: interviewUrl(publicBaseUrl, interview.token),
      questionsCount: interview.questions?.length ?? 0,
      expiresAt: expiresAtOf(interview),
      unsubscribeUrl: unsubscribe,
    });
  return candidateEmail(deps, interview, workspace, companyName, compose, {
    tags: { interview_id: interview._id, project_id: interview.project_id },
    kind,
  });
}

/** The invitation workflow's activities, the type it proxies. */
export type InterviewActivities = ReturnType<typeof createInterviewActivities>;
