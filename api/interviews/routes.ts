import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { jobFamily } from '../errors';
import { compileValidator } from '../validation';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { findOwned } from '../owned';
import { InviteRequest, type InterviewViewResponse } from '../../shared/interviews/schema';
import { inviteRules } from '../../shared/interviews/rules';
import { inviteCandidates } from './invite';
import { interviewView } from '../../infra/views/interviews';
import { resendInterview } from './resend';
import { listHandler } from '../lists';
import { interviewPages } from '../../stores/interviews';
import { InterviewListQuery } from '../../shared/lists/schema';
import { sendAnswerRecording } from '../../infra/recordings';
import { NotFoundError } from '../../shared/errors';
import { withinBudgets } from '../budgets';

const validateInvite = compileValidator(InviteRequest, inviteRules);

/** Interview invitations and their status, with the job family's error shapes. */
export function interviewRoutes(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = publicRouter(deps, jobFamily(config.SUPPORT_EMAIL), { bodies: true });

  router.post('/interview/invite', async (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    const req = validateInvite(ctx.request.body);
    const n = req.candidates.length;
    const spends = [
      { limiter: deps.budgets.candidates, name: 'candidates', amount: n, counts: 'candidates per hour' },
      { limiter: deps.budgets.emails, name: 'emails', amount: n, counts: 'emails per day' },
    ];
    // A new job's questions spend from the AI budget when they are generated (activities/interviews.ts).
    ctx.body = await withinBudgets(ctx, spends, () => inviteCandidates(deps, ws, req));
  });

  const listInterviews = listHandler('interviews', InterviewListQuery, interviewPages, (i) => interviewView(i, config.PUBLIC_BASE_URL));
  router.get('/interviews', async (ctx) => {
    ctx.body = await listInterviews(db, (ctx.state.workspace as WorkspaceDoc)._id, ctx);
  });

  router.get('/interviews/:id/answers/:index/recording', async (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    const interview = await findOwned(db.interviews, ctx.params.id, ws._id, 'Interview not found');
    if (!(await sendAnswerRecording(ctx, db, interview, ctx.params.index))) throw new NotFoundError('This answer has no recording');
  });

  router.post('/interviews/:id/resend', async (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    const spends = [
      { limiter: deps.budgets.resends, name: 'resends', counts: 'interview resends per hour' },
      { limiter: deps.budgets.emails, name: 'emails', counts: 'emails per day' },
    ];
    const resent = await withinBudgets(ctx, spends, () => resendInterview(deps, ws, ctx.params.id));
    const body: InterviewViewResponse = { success: true, data: interviewView(resent, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });

  router.get('/interviews/:id', async (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    const interview = await findOwned(db.interviews, ctx.params.id, ws._id, 'Interview not found');
    const body: InterviewViewResponse = { success: true, data: interviewView(interview, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });
  return router;
}
