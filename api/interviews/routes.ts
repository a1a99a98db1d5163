import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { jobFamily } from '../errors';
import { compileValidator } from '../../shared/validation';
import type { InterviewDoc } from '../../infra/documents/interviews';
import { orNotFound } from '../owned';
import { InviteRequest, type InterviewViewResponse } from '../../shared/interviews/schema';
import { inviteRules } from '../../shared/interviews/rules';
import { interviewView } from '../../infra/views/interviews';
import { listHandler } from '../lists';
import { InterviewListQuery } from '../../shared/lists/schema';
import { withinLimits } from '../limits';
import { InterviewReviewRequest } from '../../shared/interviews/review';

const validateInvite = compileValidator(InviteRequest, inviteRules);
const validateReview = compileValidator(InterviewReviewRequest);

/** Interview invitations and their status, with the job family's error shapes. */
export function interviewRoutes(deps: ApiDeps): Router {
  const { stores, config } = deps;
  const { limits } = stores;
  const router = publicRouter(deps, jobFamily(config.SUPPORT_EMAIL), { bodies: true });

  router.post('/interview/invite', async (ctx) => {
    const req = validateInvite(ctx.request.body);
    const n = req.candidates.length;
    const takes = [
      { limit: limits.candidates, name: 'candidates', amount: n, counts: 'candidates per hour' },
      { limit: limits.emails, name: 'emails', amount: n, counts: 'emails per day' },
    ];
    // A new job's questions take from the AI limit when they are generated (activities/interviews.ts).
    ctx.body = await withinLimits(ctx, takes, () => deps.operations.inviteCandidates(ctx.state.workspace, req));
  });

  const listInterviews = listHandler('interviews', InterviewListQuery, (i: InterviewDoc) => interviewView(i, config.PUBLIC_BASE_URL));
  router.get('/interviews', async (ctx) => {
    ctx.body = await listInterviews(stores.interviews, stores.signedTokens, ctx, stores.limits);
  });
  const owned = (ctx: { state: { workspace: { _id: string } } }, id: string) =>
    orNotFound(stores.interviews.owned(ctx.state.workspace._id, id), 'Interview not found');

  // An answer's recording, or a live interview's conversation (operations/recording-downloads.ts).
  router.get(['/interviews/:id/answers/:index/recording', '/interviews/:id/recording'], async (ctx) => {
    const of = ctx.params.index === undefined ? 'conversation' : { answer: ctx.params.index };
    const at = { workspaceId: ctx.state.workspace._id, interviewId: ctx.params.id };
    const download = await deps.operations.recordingDownload(at, of, ctx.get('Range') || undefined);
    ctx.status = download.status;
    ctx.set(download.headers);
    ctx.body = download.body ?? '';
  });

  router.post('/interviews/:id/resend', async (ctx) => {
    const takes = [
      { limit: limits.resends, name: 'resends', counts: 'interview resends per hour' },
      { limit: limits.emails, name: 'emails', counts: 'emails per day' },
    ];
    const resent = await withinLimits(ctx, takes, () => deps.operations.resendInterview(ctx.state.workspace, ctx.params.id));
    const body: InterviewViewResponse = { success: true, data: interviewView(resent, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });

  router.post('/interviews/:id/review', async (ctx) => {
    const review = validateReview(ctx.request.body);
    const madeBy = { via: 'api' as const, key_id: ctx.state.apiKeyId };
    const reviewed = await deps.operations.reviewInterview(ctx.state.workspace._id, ctx.params.id, review, madeBy);
    const body: InterviewViewResponse = { success: true, data: interviewView(reviewed, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });

  router.get('/interviews/:id', async (ctx) => {
    const interview = await owned(ctx, ctx.params.id);
    const body: InterviewViewResponse = { success: true, data: interviewView(interview, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });
  return router;
}
