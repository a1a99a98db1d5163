import { MongoServerError } from 'mongodb';
import type { Client } from '@temporalio/client';
import type { Config } from '../../infra/config';
import type { Database } from '../../infra/database';
import type { Logger } from '../../infra/logger';
import type { InterviewDoc, ProjectDoc } from '../../infra/records';
import type { WorkspaceDoc } from '../../infra/workspaces';
import { newId, newToken } from '../../infra/ids';
import { claim, release } from '../../infra/claims';
import { mapWithConcurrency } from '../../shared/concurrency';
import { normaliseEmail, titleCase } from '../../shared/names';
import { DEFAULT_TIME_LIMIT_SECONDS, type Question } from '../../shared/schemas/job';
import type { CustomQuestion, InterviewResult, InviteRequest, InviteResponse } from '../../shared/schemas/interview-invite';
import { interviewWorkflow, interviewWorkflowId } from '../../workflows/interview';
import { candidateSearchAttributes, InterviewStatus } from '../../workflows/search-attributes';
import { startWorkflowOnce } from '../../infra/temporal';
import { jobUrl, projectUrl } from '../../shared/public-urls';
import { ensureInterviewProject } from './projects';
import { upsertCandidate } from '../candidates';

export interface InviteDeps {
  db: Database;
  temporal: Client;
  config: Config;
  logger: Logger;
}

/** Candidates handled at once: enough to keep MongoDB and Temporal busy without flooding either. */
const CONCURRENCY = 16;

const MESSAGES = {
  queued: 'Interview invitation is being processed',
  alreadyInvited: 'Candidate was already invited to this interview; no new invitation was sent',
  duplicateId: 'Duplicate candidate id in this request; the candidate is invited once',
  retry: 'Could not queue the invitation; please retry',
} as const;

type Candidate = InviteRequest['candidates'][number] & { name: string; email: string };
type Outcome = Pick<InterviewResult, 'id' | 'status' | 'message'>;

/**
 * interview/invite after validation: ensure the project, then for each candidate in request order reserve
 * its email, upsert it, create its interview (one per candidate and project) and start the invitation.
 */
export async function inviteCandidates(deps: InviteDeps, workspace: WorkspaceDoc, req: InviteRequest): Promise<InviteResponse> {
  const project = await ensureInterviewProject(deps.db, workspace._id, req);
  const customQuestions = req.questions ? req.questions.map(resolveQuestion) : null;
  const candidates: Candidate[] = req.candidates.map((c) => ({ ...c, name: titleCase(c.name), email: normaliseEmail(c.email) }));
  // Clashes inside the request are settled in request order, before anything touches the database.
  const firstIdAt = new Map<string, number>();
  const emailOwner = new Map<string, string>();
  const early: Array<Outcome | null> = candidates.map((c, i) => {
    if (firstIdAt.has(c.id)) return failed(MESSAGES.duplicateId);
    firstIdAt.set(c.id, i);
    const owner = emailOwner.get(c.email);
    if (owner !== undefined) return failed(`Candidate ${owner} in this request has the same email; an email belongs to one candidate`);
    emailOwner.set(c.email, c.id);
    return null;
  });

  const outcomes = await mapWithConcurrency(candidates, CONCURRENCY, (c, i) =>
    early[i]
      ? Promise.resolve(early[i])
      : inviteOne(deps, workspace, project, c, customQuestions).catch((err) => {
          // The caller sees a retryable failure for this entry; the cause goes to the log only.
          deps.logger.error({ err, projectId: project._id, candidateId: c.id }, 'invitation could not be queued');
          return failed(MESSAGES.retry);
        }),
  );
  const interviews = candidates.map((c, i): InterviewResult => {
    const { id, status, message } = outcomes[i];
    return { ...(id ? { id } : {}), candidate_id: c.id, name: c.name, email: c.email, status, message };
  });
  const base = deps.config.PUBLIC_BASE_URL;
  return {
    success: interviews.some((r) => r.status === 'success'),
    data: { project_id: project._id, job_url: jobUrl(base, project._id), project_url: projectUrl(base, project._id), interviews },
  };
}

function failed(message: string): Outcome {
  return { status: 'failed', message };
}

function resolveQuestion(q: CustomQuestion): Question {
  const type = q.type ?? 'video';
  return { question: q.question.trim(), type, time_limit_seconds: q.time_limit_seconds ?? DEFAULT_TIME_LIMIT_SECONDS[type] };
}

async function inviteOne(deps: InviteDeps, ws: WorkspaceDoc, project: ProjectDoc, c: Candidate, customQuestions: Question[] | null): Promise<Outcome> {
  const { db } = deps;
  const owner = await claim(db, emailKey(project._id, c.email), c.id);
  if (owner !== c.id) return failed(`A candidate with this email already exists in this project under a different id (${owner})`);

  const { previous } = await upsertCandidate(db, ws._id, project._id, { ...c, phone: c.phone ?? null });
  // The candidate changed email: its old address is free for another candidate again.
  if (previous && previous.email !== c.email) {
    await release(db, emailKey(project._id, previous.email), c.id);
  }

  const now = new Date();
  const interview: InterviewDoc = {
    _id: newId('int'),
    workspace_id: ws._id,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: c.id,
    candidate: { name: c.name, email: c.email, phone: c.phone ?? null },
    token: newToken(),
    workflow_id: '',
    status: 'queued',
    custom_questions: customQuestions,
    questions: null,
    error: null,
    email: { status: 'pending', provider: null, message_id: null, sent_at: null, error: null },
    created_at: now,
    updated_at: now,
  };
  interview.workflow_id = interviewWorkflowId(interview._id);
  try {
    await db.interviews.insertOne(interview);
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
    const existing = await db.interviews.findOne({ project_id: project._id, candidate_id: c.id });
    if (!existing) throw err;
    // Finishes the job of an earlier request that stopped between recording the interview and starting it.
    await startInterviewWorkflow(deps, existing);
    return { id: existing._id, status: 'success', message: MESSAGES.alreadyInvited };
  }
  await startInterviewWorkflow(deps, interview);
  return { id: interview._id, status: 'success', message: MESSAGES.queued };
}

/** The claim that makes an email belong to one candidate id within a project. */
function emailKey(projectId: string, email: string): string {
  return `email/${projectId}/${email}`;
}

/** Starts the invitation's workflow under its deterministic id; starting it again is a no-op. */
export async function startInterviewWorkflow(deps: InviteDeps, interview: InterviewDoc): Promise<void> {
  await startWorkflowOnce(deps.temporal, interviewWorkflow, {
    workflowId: interview.workflow_id,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    args: [{ interviewId: interview._id }],
    typedSearchAttributes: [...candidateSearchAttributes(interview), { key: InterviewStatus, value: 'queued' }],
    staticSummary: `Interview invitation for ${interview.candidate.name} (${interview.ats_job_id})`,
  });
}
