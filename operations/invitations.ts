import type { OperationDeps } from './deps';
import type { FileCandidates } from './candidates';
import { documentId, type CandidateDoc, type ProjectDoc } from '../infra/documents/projects';
import { interviewToken, type InterviewDoc } from '../infra/documents/interviews';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import type { WriteResult } from '../infra/duplicate-key';
import type { PartnerLink } from '../infra/documents/partners';
import { normaliseEmail } from '../infra/people';
import { titleCase } from '../shared/names';
import { DEFAULT_TIME_LIMIT_SECONDS, type Question } from '../shared/jobs/schema';
import type { CustomQuestion, InterviewResult, InviteRequest, InviteResponse } from '../shared/interviews/schema';
import { interviewWorkflowId } from '../shared/workflow-starts';
import { startOrTakeBack } from './workflow-starts';
import { jobUrl, projectUrl } from '../shared/public-urls';
import { ensureInterviewProject } from './interview-projects';
import { EXPIRES_IN_DAYS, expiryAfter } from '../shared/interviews/deadlines';
import { FOLLOW_UPS, type InterviewMode } from '../shared/interviews/live';

type InviteDeps = OperationDeps & { fileCandidates: FileCandidates };

const MESSAGES = {
  queued: 'Interview invitation is being processed',
  alreadyInvited: 'Candidate was already invited to this interview; no new invitation was sent',
  duplicateId: 'Duplicate candidate id in this request; the candidate is invited once',
  retry: 'Could not queue the invitation; please retry',
  optedOut: "The candidate opted out of emails: the email or phone is in the workspace's suppression list (email); no invitation was sent",
  sameEmail: (owner: string) => `Candidate ${owner} in this request has the same email; an email belongs to one candidate`,
  emailTaken: (owner: string) => `A candidate with this email already exists in this project under a different id (${owner})`,
} as const;

type Candidate = InviteRequest['candidates'][number] & { name: string; email: string };
/** What the response says of one entry of the request. */
type EntryResult = Pick<InterviewResult, 'id' | 'status' | 'message'>;

/**
 * interview/invite after validation. The batch takes a fixed number of database round trips whatever its
 * size: the project; every email's claim (an email belongs to one candidate id in a project); the candidates
 * with the interviews (one per candidate and project, by derived `_id`); then one workflow start
 * (docs/bulk-requests.md). An entry says `success` only once its invitation's workflow is sure to start.
 */
export async function inviteCandidates(
  deps: InviteDeps,
  workspace: Readonly<WorkspaceDoc>,
  req: InviteRequest & PartnerLink,
): Promise<InviteResponse> {
  const project = await ensureInterviewProject(deps.stores.projects, workspace._id, req);
  const customQuestions = req.questions ? req.questions.map(resolveQuestion) : null;
  const candidates: Candidate[] = req.candidates.map((c) => ({ ...c, name: titleCase(c.name), email: normaliseEmail(c.email) }));
  // Clashes inside the request are settled in request order, before anything touches the database.
  const firstIdAt = new Map<string, number>();
  const emailOwner = new Map<string, string>();
  const results: Array<EntryResult | null> = candidates.map((c, i) => {
    if (firstIdAt.has(c.id)) return failed(MESSAGES.duplicateId);
    firstIdAt.set(c.id, i);
    const owner = emailOwner.get(c.email);
    if (owner !== undefined) return failed(MESSAGES.sameEmail(owner));
    emailOwner.set(c.email, c.id);
    return null;
  });
  // The suppression list before anything is written: a suppressed candidate gets no invitation and no document.
  const open = candidates.flatMap((c, i) => (results[i] === null ? [i] : []));
  const refused = await deps.stores.suppressions.refuses(
    workspace,
    open.map((i) => candidates[i]),
    'email',
  );
  open.forEach((i, n) => refused[n] && (results[i] = failed(MESSAGES.optedOut)));
  const pending = open.filter((_, n) => !refused[n]);
  const terms: InvitationTerms = {
    questions: customQuestions,
    expiresInDays: req.expires_in_days ?? EXPIRES_IN_DAYS.default,
    mode: req.interview_mode ?? 'async',
    followUps: req.follow_ups_per_question ?? FOLLOW_UPS.default,
    partnerAssessmentId: req.partner_assessment_id ?? null,
  };
  const invited =
    pending.length > 0
      ? await inviteAll(
          deps,
          workspace,
          project,
          pending.map((i) => candidates[i]),
          terms,
        )
      : [];
  pending.forEach((i, n) => (results[i] = invited[n]));

  const interviews = candidates.map((c, i): InterviewResult => {
    const { id, status, message } = results[i]!;
    return { ...(id ? { id } : {}), candidate_id: c.id, name: c.name, email: c.email, status, message };
  });
  const base = deps.config.PUBLIC_BASE_URL;
  return {
    success: interviews.some((r) => r.status === 'success'),
    data: { project_id: project._id, job_url: jobUrl(base, project._id), project_url: projectUrl(base, project._id), interviews },
  };
}

function failed(message: string): EntryResult {
  return { status: 'failed', message };
}

function resolveQuestion(q: CustomQuestion): Question {
  const type = q.type ?? 'video';
  return { question: q.question.trim(), type, time_limit_seconds: q.time_limit_seconds ?? DEFAULT_TIME_LIMIT_SECONDS[type] };
}

/** Candidates with distinct ids and emails: claims their emails, records them and their interviews, starts them. */
async function inviteAll(
  deps: InviteDeps,
  ws: Readonly<WorkspaceDoc>,
  project: Readonly<ProjectDoc>,
  cands: Candidate[],
  terms: InvitationTerms,
): Promise<EntryResult[]> {
  const { stores, fileCandidates } = deps;
  const claims = await stores.candidates.claimEmails(
    project._id,
    cands.map((c) => ({ email: c.email, candidateId: c.id })),
  );
  const results = new Array<EntryResult | null>(cands.length).fill(null);
  await Promise.all(
    cands.map(async (c, i) => {
      if (claims[i] === 'written') return;
      // Held already: by this candidate (a re-invite) or by another id; released meanwhile, claimed again.
      const owner = claims[i] === 'duplicate' ? await stores.candidates.emailOwner(project._id, c.email, c.id) : null;
      if (owner === null) results[i] = failed(MESSAGES.retry);
      else if (owner !== c.id) results[i] = failed(MESSAGES.emailTaken(owner));
    }),
  );
  const ok = cands.flatMap((_, i) => (results[i] === null ? [i] : []));
  const docs = ok.map((i) => newInterview(ws, project, cands[i], terms));
  const inputs = ok.map((i) => ({ ...cands[i], phone: cands[i].phone ?? null }));
  // The candidates, where an erasure or a suppression finds the interviews, filed before they start.
  const [filed, created] = await Promise.allSettled([
    fileCandidates(ws._id, project._id, inputs, { kind: 'interviews', ids: docs.map((d) => d._id) }),
    stores.interviews.create(docs),
  ]);
  if (filed.status === 'rejected' || created.status === 'rejected') {
    // An outage (a 503) or a fault (a 500): the interviews this request wrote are taken back, so none is left
    // that an erasure could not find (its candidate's filing undone: operations/candidates.ts), and the retry
    // invites afresh. Both writes have settled first, so none lands after its take-back. Not waited for: the
    // database that failed them is likely gone, and the 503 is due within 5 s.
    void takeBackOwn(deps, docs, created.status === 'fulfilled' ? created.value : null);
    throw filed.status === 'rejected' ? filed.reason : (created as PromiseRejectedResult).reason;
  }
  const [candidates, interviewWrites] = [filed.value, created.value];
  const [started] = await Promise.all([
    startInvitations(
      deps,
      project,
      docs,
      candidates.saved.map((w) => (candidates.indexed ? w.write : 'error')),
      interviewWrites,
    ),
    releaseOldEmails(
      deps,
      project._id,
      ok.map((i, n) => [cands[i], candidates.saved[n].previous] as const),
    ),
  ]);
  ok.forEach((i, n) => (results[i] = started[n]));
  return results.map((r) => r!);
}

/**
 * Takes back the interviews a request wrote before it failed: those its insert wrote, or, when the insert's
 * outcome is unknown (it failed), those found as this request made them (its own `created_at`, never an
 * earlier request's interview of the same candidate).
 */
async function takeBackOwn({ stores, logger }: InviteDeps, docs: InterviewDoc[], written: WriteResult[] | null): Promise<void> {
  try {
    const mine = written
      ? docs.filter((_, n) => written[n] === 'written')
      : (
          await Promise.all(
            docs.map(async (d) => ((await stores.interviews.get(d._id))?.created_at.getTime() === d.created_at.getTime() ? d : null)),
          )
        ).filter((d): d is InterviewDoc => d !== null);
    await stores.interviews.takeBack(mine);
  } catch (err) {
    logger.error({ err }, 'interviews of a failed invitation could not be taken back');
  }
}

/**
 * A candidate that changed email frees its old address for another candidate of the project. A release that
 * fails keeps the old address reserved for this candidate and is logged; the invitation itself stands.
 */
async function releaseOldEmails(
  { stores, logger }: InviteDeps,
  projectId: string,
  pairs: ReadonlyArray<readonly [Candidate, CandidateDoc | null]>,
): Promise<void> {
  await Promise.all(
    pairs.map(async ([c, before]) => {
      if (!before || before.email === c.email) return;
      await stores.candidates
        .releaseEmail(projectId, before.email, c.id)
        .catch((err: unknown) => logger.error({ err, projectId, candidateId: c.id }, 'old email of a candidate could not be released'));
    }),
  );
}

/**
 * Starts the invitations whose candidate and interview are written, in one start (the WorkflowPort's startInvitations). An
 * interview that already existed (a re-invite, or an earlier request that stopped before starting it) is
 * started too, which is a no-op when it ran. When the start fails, the entries fail and take back the
 * interviews they wrote, so the retry invites afresh.
 */
async function startInvitations(
  deps: InviteDeps,
  project: Readonly<ProjectDoc>,
  docs: InterviewDoc[],
  candidates: WriteResult[],
  written: WriteResult[],
): Promise<EntryResult[]> {
  const ready = docs.map((_, n) => candidates[n] === 'written' && written[n] !== 'error');
  const starts = docs.filter((_, n) => ready[n]);
  /** Deletes the interviews this request wrote among `which`, and their list entries, so that a retry invites afresh. */
  const takeBack = (which: (n: number) => boolean) =>
    deps.stores.interviews.takeBack(docs.filter((_, n) => which(n) && written[n] === 'written')).catch(() => undefined);
  const request = { summary: `interview/invite: ${starts.length} invitations for ${project.ats_job_id}`, project };
  const started = await startOrTakeBack(
    deps,
    () => deps.workflows.startInvitations(starts, request),
    { summary: request.summary, workflows: starts.length },
    () => takeBack(() => true),
  );
  if (started) await takeBack((n) => !ready[n]);
  return docs.map((interview, n): EntryResult => {
    if (!started || !ready[n]) return failed(MESSAGES.retry);
    return { id: interview._id, status: 'success', message: written[n] === 'duplicate' ? MESSAGES.alreadyInvited : MESSAGES.queued };
  });
}

/** What a request sets for each of its invitations: the caller's own questions, if any, and the link's lifetime. */
interface InvitationTerms {
  questions: Question[] | null;
  expiresInDays: number;
  mode: InterviewMode;
  followUps: number;
  /** An ATS's order (operations/partner-orders.ts): each change of the interview tells its push workflow. */
  partnerAssessmentId: string | null;
}

function newInterview(ws: Readonly<WorkspaceDoc>, project: Readonly<ProjectDoc>, c: Candidate, terms: InvitationTerms): InterviewDoc {
  const now = new Date();
  const _id = documentId.interview(project._id, c.id);
  return {
    _id,
    workspace_id: ws._id,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: c.id,
    candidate: { name: c.name, email: c.email, phone: c.phone ?? null, ...(c.timezone ? { timezone: c.timezone } : {}) },
    token: interviewToken(_id),
    workflow_id: interviewWorkflowId(_id),
    status: 'queued',
    // Only a live interview stores its mode and follow-ups: an async one is stored as before them.
    ...(terms.mode === 'live' ? { interview_mode: 'live' as const, follow_ups_per_question: terms.followUps } : {}),
    custom_questions: terms.questions,
    questions: null,
    error: null,
    email: { status: 'pending', provider: null, message_id: null, sent_at: null, error: null },
    expires_at: expiryAfter(now, terms.expiresInDays),
    ...(terms.partnerAssessmentId ? { partner_assessment_id: terms.partnerAssessmentId } : {}),
    created_at: now,
    updated_at: now,
  };
}
